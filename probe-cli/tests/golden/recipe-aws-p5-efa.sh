#!/usr/bin/env bash
# nccl-tests for this node's fabric (efa), written by probe-cli recipe.
# Read from the node: 32 active EFA device(s) (driver efa): rdmap111s0, rdmap112s0, rdmap113s0, rdmap114s0, rdmap127s0, rdmap128s0, rdmap129s0, rdmap130s0 and 24 more.
# Each run sweeps -b 8 -e 8G -f 2 -g 1 (8 B to 8 GiB, one process per GPU); -n is sized by the model so that a run takes about a minute.
# Needs nccl-tests built with MPI (make MPI=1 MPI_HOME=...) in $NCCL_TESTS.
NCCL_TESTS=${NCCL_TESTS:-./build}

# ---- Environment ----
# prints which network each rank uses (NET/IB, NET/OFI, NET/Socket, the plugin) and its channels, so the output shows the run used the fabric; probe-cli health reads these lines (NCCL's environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)
export NCCL_DEBUG='INFO'
# libfabric, Open MPI and the aws-ofi-nccl plugin where AWS's AMIs install them: NCCL loads the plugin from the loader's path, and without it falls back to sockets (aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests/slurm/nccl-tests-ami.sbatch @0162aacd L37; aws/aws-ofi-nccl README.md @c2aba3c0 (Running nccl-perf tests))
export LD_LIBRARY_PATH='/opt/amazon/efa/lib:/opt/amazon/openmpi/lib:/opt/amazon/ofi-nccl/lib:'"$LD_LIBRARY_PATH"
# keeps libfabric on EFA rather than its tcp provider; required by aws-ofi-nccl 1.5.0 and older, harmless later, and what AWS's own nccl-tests script sets (aws/aws-ofi-nccl doc/efa-env-var.md @518f4c6a L41-42; aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests/slurm/nccl-tests-ami.sbatch @0162aacd L35)
export FI_PROVIDER='efa'
# bootstrap on the ENA interface, not a container's bridge or veth pair (aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests/slurm/nccl-tests-ami.sbatch @0162aacd L39)
export NCCL_SOCKET_IFNAME='^docker,lo,veth'
# Note: With aws-ofi-nccl 1.6.x, or libfabric older than 1.18, on p4d or p5 also set FI_EFA_USE_DEVICE_RDMA=1 (GPUDirect RDMA); with aws-ofi-nccl 1.5.0 or older also NCCL_PROTO=simple. Newer stacks need neither (aws/aws-ofi-nccl doc/efa-env-var.md @518f4c6a L29-30, L47-48, L115-123).
# Note: A plugin built without the libnccl-net.so link (newer aws-ofi-nccl builds install libnccl-net-ofi.so) needs NCCL_NET_PLUGIN=ofi, or NCCL runs over sockets: check the log for NET/OFI (aws/aws-ofi-nccl src/Makefile.am @02d5160a L72-81; NVIDIA/nccl v2.22.3-1 src/net.cc openNetPluginLib).

# Below: the same runs with Open MPI, then with Slurm. Run one set, not both.

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Open MPI (mpirun) ----
# all_reduce: about 60 s by the model, -n 460
mpirun -np 8 -H node01:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 460 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 722
mpirun -np 8 -H node01:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 722
mpirun -np 8 -H node01:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 726
mpirun -np 8 -H node01:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 726 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Open MPI (mpirun) ----
# all_reduce: about 60 s by the model, -n 414
mpirun -np 16 -H node01:8,node02:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 60 s by the model, -n 491
mpirun -np 16 -H node01:8,node02:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 491 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 491
mpirun -np 16 -H node01:8,node02:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 491 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 95
mpirun -np 16 -H node01:8,node02:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 95 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Open MPI (mpirun): all_reduce on every pair of a round at once (about 60 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
mpirun -np 16 -H node01:8,node02:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node01_node02.txt 2>&1 &
mpirun -np 16 -H node03:8,node04:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
mpirun -np 16 -H node02:8,node03:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node02_node03.txt 2>&1 &
mpirun -np 16 -H node04:8,node01:8 --bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent -x NCCL_DEBUG -x LD_LIBRARY_PATH -x FI_PROVIDER -x NCCL_SOCKET_IFNAME "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# ---- One node: NVLink/PCIe only, the baseline the network is judged beside, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 60 s by the model, -n 460
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 460 -w 5 2>&1 | tee one-node_all_reduce.txt
# all_gather: about 60 s by the model, -n 722
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 722
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 722 -w 5 2>&1 | tee one-node_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 726
srun -N 1 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 726 -w 5 2>&1 | tee one-node_alltoall.txt

# ---- Two nodes: the fabric, Slurm (srun, inside an allocation of the nodes) ----
# all_reduce: about 60 s by the model, -n 414
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 2>&1 | tee two-nodes_all_reduce.txt
# all_gather: about 60 s by the model, -n 491
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_gather_perf" -b 8 -e 8G -f 2 -g 1 -n 491 -w 5 2>&1 | tee two-nodes_all_gather.txt
# reduce_scatter: about 60 s by the model, -n 491
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/reduce_scatter_perf" -b 8 -e 8G -f 2 -g 1 -n 491 -w 5 2>&1 | tee two-nodes_reduce_scatter.txt
# alltoall: about 60 s by the model, -n 95
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/alltoall_perf" -b 8 -e 8G -f 2 -g 1 -n 95 -w 5 2>&1 | tee two-nodes_alltoall.txt

# ---- Pairwise rounds, Slurm (srun, inside an allocation of the nodes): all_reduce on every pair of a round at once (about 60 s a round), one output per pair for probe-cli pairs ----
mkdir -p pairs
# Round 1 of 2: 2 pairs
srun -N 2 -w node01,node02 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node01_node02.txt 2>&1 &
srun -N 2 -w node03,node04 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node03_node04.txt 2>&1 &
wait
# Round 2 of 2: 2 pairs
srun -N 2 -w node02,node03 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node02_node03.txt 2>&1 &
srun -N 2 -w node04,node01 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1 -n 414 -w 5 > pairs/node04_node01.txt 2>&1 &
wait
# Then name the bad node from the 4 nodes' pairs: probe-cli pairs --report node.json pairs/

# Judge each output against the model: probe-cli health --report node.json two-nodes_all_reduce.txt
