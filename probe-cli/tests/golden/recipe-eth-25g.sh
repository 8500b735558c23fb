#!/usr/bin/env bash
# nccl-tests for this node's fabric (socket), written by probe-cli recipe.
# Read from the node: no active RDMA port: NCCL's socket transport over 3 Ethernet interface(s) up, the fastest at 25 Gb/s: ens1f0, ens1f1.
# Each run sweeps -b 8 -e 8G -f 2 -g 1 (8 B to 8 GiB, one process per GPU); -n is sized by the model so that a run takes about a minute.
# Needs nccl-tests built with MPI (make MPI=1 MPI_HOME=...) in $NCCL_TESTS.
NCCL_TESTS=${NCCL_TESTS:-./build}

# ---- Environment ----
# prints which network each rank uses (NET/IB, NET/OFI, NET/Socket, the plugin) and its channels, so the output shows the run used the fabric; probe-cli health reads these lines (NCCL's environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)
export NCCL_DEBUG='INFO'
# the interface NCCL's sockets carry the data over, by exact name: unset, NCCL takes the first that is not docker or lo, which may be a slow management port or a virtual bridge (NVIDIA/nccl v2.22.3-1 src/misc/socket.cc L323-357 (ncclFindInterfaces: ib* first, then anything but docker and lo))
export NCCL_SOCKET_IFNAME='=ens1f0,ens1f1'
# Note: The NCCL version is unknown (give --nccl-version, or run in the container whose NCCL_VERSION the probe reads): the environment holds for old and new releases.

# Below: the same runs with Open MPI, then with Slurm. Run one set, not both.

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Open MPI (mpirun) ----
# all_reduce: about 60 s by the model, -n 224
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 224 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 451
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 451 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 451
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 451 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 453
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 453 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Open MPI (mpirun) ----
# all_reduce: about 56 s by the model, -n 5
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 54 s by the model, -n 6
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 6 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 54 s by the model, -n 6
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 6 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 254 s by the model, -n 5
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Open MPI (mpirun): all_reduce on every pair of a round at once (about 56 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node01_node02.txt 2>&1 &
mpirun -np 16 -H node03:8,node04:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
mpirun -np 16 -H node02:8,node03:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node02_node03.txt 2>&1 &
mpirun -np 16 -H node04:8,node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 60 s by the model, -n 224
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 224 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 451
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 451 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 451
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 451 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 453
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 453 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 56 s by the model, -n 5
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 54 s by the model, -n 6
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 6 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 54 s by the model, -n 6
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 6 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 254 s by the model, -n 5
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Slurm (srun, inside an allocation of the nodes): all_reduce on every pair of a round at once (about 56 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node01_node02.txt 2>&1 &
srun -N 2 -w node03,node04 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
srun -N 2 -w node02,node03 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node02_node03.txt 2>&1 &
srun -N 2 -w node04,node01 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 5 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# Judge each output against the model: probe-cli health --report node.json two-nodes_all_reduce.txt
