#!/usr/bin/env bash
# nccl-tests for this node's fabric (roce), written by probe-cli recipe.
# Read from the node: 2 active RoCE port(s): mlx5_0:1, mlx5_1:1.
# Read from the node: RoCE v2 GID with an IPv4 address at index 3 on every port.
# Read from the node: bootstrap interface ens1f0np0.
# Each run sweeps -b 8 -e 8G -f 2 -g 1 (8 B to 8 GiB, one process per GPU); -n is sized by the model so that a run takes about a minute.
# Needs nccl-tests built with MPI (make MPI=1 MPI_HOME=...) in $NCCL_TESTS.
NCCL_TESTS=${NCCL_TESTS:-./build}

# ---- Environment ----
# prints which network each rank uses (NET/IB, NET/OFI, NET/Socket, the plugin) and its channels, so the output shows the run used the fabric; probe-cli health reads these lines (NCCL's environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)
export NCCL_DEBUG='INFO'
# the active ports the probe counted, by exact name ('=': without it mlx5_1 also matches mlx5_10 and up); unset, NCCL takes every active port, a storage or front-end one too (NVIDIA/nccl v2.21.5-1 src/transport/net_ib.cc L412-419 (^ excludes, = exact), v2.22.3-1 src/misc/utils.cc L170-174 (no = matches by prefix))
export NCCL_IB_HCA='=mlx5_0:1,mlx5_1:1'
# bootstrap and NET/IB's out-of-band connection on a routable interface; unset, NCCL prefers ib* (IPoIB) interfaces, then the first that is not docker or lo (NVIDIA/nccl v2.22.3-1 src/misc/socket.cc L323-357 (ncclFindInterfaces: ib* first, then anything but docker and lo))
export NCCL_SOCKET_IFNAME='=ens1f0np0'
# the RoCE v2 GID with an IPv4 address: NCCL before 2.21.5 uses index 0 unless told; 2.21.5 and later find it themselves, and this value agrees with what they find (NVIDIA/nccl v2.20.5-1 src/transport/net_ib.cc L80 (default 0); v2.21.5-1 L80-81 and ncclIbGetGidIndex L292-309 (default -1: auto))
export NCCL_IB_GID_INDEX='3'
# Note: RoCE needs a lossless (PFC/ECN) traffic class on the switches; if yours uses one, set NCCL_IB_TC to it (a site value NCCL cannot find: Oracle's OCI uses 41, oracle-quickstart/oci-hpc samples/gpu/nccl_run_allreduce_H100.sbatch @2a1cff25 L52).
# Note: The NCCL version is unknown (give --nccl-version, or run in the container whose NCCL_VERSION the probe reads): the environment holds for old and new releases.

# Below: the same runs with Open MPI, then with Slurm. Run one set, not both.

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Open MPI (mpirun) ----
# all_reduce: about 56 s by the model, -n 12
mpirun -np 4 -H node01:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 12 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 29
mpirun -np 4 -H node01:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 29
mpirun -np 4 -H node01:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 29
mpirun -np 4 -H node01:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Open MPI (mpirun) ----
# all_reduce: about 59 s by the model, -n 15
mpirun -np 8 -H node01:4,node02:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 59 s by the model, -n 33
mpirun -np 8 -H node01:4,node02:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 33 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 59 s by the model, -n 33
mpirun -np 8 -H node01:4,node02:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 33 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 59 s by the model, -n 29
mpirun -np 8 -H node01:4,node02:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Open MPI (mpirun): all_reduce on every pair of a round at once (about 59 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
mpirun -np 8 -H node01:4,node02:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node01_node02.txt 2>&1 &
mpirun -np 8 -H node03:4,node04:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
mpirun -np 8 -H node02:4,node03:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node02_node03.txt 2>&1 &
mpirun -np 8 -H node04:4,node01:4 --bind-to numa -x NCCL_DEBUG -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x NCCL_IB_GID_INDEX "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 56 s by the model, -n 12
srun -N 1 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 12 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 29
srun -N 1 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 29
srun -N 1 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 29
srun -N 1 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 59 s by the model, -n 15
srun -N 2 -w node01,node02 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 59 s by the model, -n 33
srun -N 2 -w node01,node02 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 33 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 59 s by the model, -n 33
srun -N 2 -w node01,node02 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 33 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 59 s by the model, -n 29
srun -N 2 -w node01,node02 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 29 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Slurm (srun, inside an allocation of the nodes): all_reduce on every pair of a round at once (about 59 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
srun -N 2 -w node01,node02 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node01_node02.txt 2>&1 &
srun -N 2 -w node03,node04 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
srun -N 2 -w node02,node03 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node02_node03.txt 2>&1 &
srun -N 2 -w node04,node01 --ntasks-per-node=4 --gpus-per-node=4 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 15 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# Judge each output against the model: probe-cli health --report node.json two-nodes_all_reduce.txt
