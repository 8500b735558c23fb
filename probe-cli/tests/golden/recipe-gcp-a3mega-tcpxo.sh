#!/usr/bin/env bash
# nccl-tests for this node's fabric (tcpxo), written by probe-cli recipe.
# Read from the node: 9 gVNIC interfaces up (driver gve): enp0s12 primary, 8 for GPU traffic, as a3-megagpu-8g (GPUDirect-TCPXO) has.
# Read from the node: bootstrap interface enp0s12.
# Each run sweeps -b 8 -e 8G -f 2 -g 1 (8 B to 8 GiB, one process per GPU); -n is sized by the model so that a run takes about a minute.
# Needs nccl-tests built with MPI (make MPI=1 MPI_HOME=...) in $NCCL_TESTS.
NCCL_TESTS=${NCCL_TESTS:-./build}

# ---- Environment ----
# Google's environment profile for the TCPXO (FasTrak) plugin on A3 Mega: its algorithm, protocol, chunk and tuner settings ("should not be modified") (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L33-34)
NCCL_LIB_DIR=/var/lib/tcpxo/lib64 source /var/lib/tcpxo/lib64/nccl-env-profile.sh
# prints which network each rank uses (NET/IB, NET/OFI, NET/Socket, the plugin) and its channels, so the output shows the run used the fabric; probe-cli health reads these lines (NCCL's environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)
export NCCL_DEBUG='INFO'
# the plugin's control traffic on the primary gVNIC (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L35)
export NCCL_FASTRAK_CTRL_DEV='enp0s12'
# the gVNICs that carry GPU data (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L36)
export NCCL_FASTRAK_IFNAME='enp6s0,enp7s0,enp13s0,enp14s0,enp134s0,enp135s0,enp141s0,enp142s0'
# bootstrap on the primary gVNIC (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L37)
export NCCL_SOCKET_IFNAME='=enp0s12'
# the devices the plugin maps GPU memory through (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L38)
export NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY='/dev/aperture_devices'
# the plugin's library, installed with the receive-datapath manager (GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc L65)
export LD_LIBRARY_PATH='/var/lib/tcpxo/lib64:'"$LD_LIBRARY_PATH"
# Note: The receive-datapath manager (RxDM) must run on every node for the job's lifetime (Google's Slurm prolog or GKE's sidecar starts it): without it the plugin cannot receive.

# Below: the same runs with Open MPI, then with Slurm. Run one set, not both.

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Open MPI (mpirun) ----
# all_reduce: about 60 s by the model, -n 360
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 360 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 722
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 722
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 726
mpirun -np 8 -H node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 726 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Open MPI (mpirun) ----
# all_reduce: about 60 s by the model, -n 162
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 60 s by the model, -n 329
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 329 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 329
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 329 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 59 s by the model, -n 62
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 62 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Open MPI (mpirun): all_reduce on every pair of a round at once (about 60 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
mpirun -np 16 -H node01:8,node02:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node01_node02.txt 2>&1 &
mpirun -np 16 -H node03:8,node04:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
mpirun -np 16 -H node02:8,node03:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node02_node03.txt 2>&1 &
mpirun -np 16 -H node04:8,node01:8 --bind-to numa -x NCCL_DEBUG -x NCCL_FASTRAK_CTRL_DEV -x NCCL_FASTRAK_IFNAME -x NCCL_SOCKET_IFNAME -x NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY -x LD_LIBRARY_PATH "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 60 s by the model, -n 360
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 360 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 722
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 722
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 726
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 726 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 60 s by the model, -n 162
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 60 s by the model, -n 329
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 329 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 329
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 329 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 59 s by the model, -n 62
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 62 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Slurm (srun, inside an allocation of the nodes): all_reduce on every pair of a round at once (about 60 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node01_node02.txt 2>&1 &
srun -N 2 -w node03,node04 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
srun -N 2 -w node02,node03 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node02_node03.txt 2>&1 &
srun -N 2 -w node04,node01 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 162 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# Judge each output against the model: probe-cli health --report node.json two-nodes_all_reduce.txt
