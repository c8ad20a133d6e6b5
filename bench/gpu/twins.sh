#!/bin/sh
# CUDA twins of corpus kernels under Nsight Compute, on the GPU machine: the
# twins' CUDA-event times (to check each twin against its Vulkan kernel),
# then the hardware counters that say which model term is wrong (bytes moved
# at each level, hit rates, instructions, occupancy, atomics).  The binary is
# built elsewhere: nvcc -O2 -arch=sm_90 -o build/bench/twins bench/gpu/twins/twins.cu
#   OUT=DIR sh bench/gpu/twins.sh [BUILD]
BUILD=${1:-build}
OUT=${OUT:-$BUILD/twins}
NCU=${NCU:-/usr/local/cuda/bin/ncu}
mkdir -p "$OUT"
"$BUILD/bench/twins" > "$OUT/twins-time.txt" 2>&1
cat "$OUT/twins-time.txt"
# the metrics seen working on this machine (docs/GPU.md) ...
TWINS_ONCE=1 timeout 300 "$NCU" --clock-control none --kernel-name regex:^tw_ --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
    "$BUILD/bench/twins" > "$OUT/twins-ncu.csv" 2> "$OUT/twins-ncu.err"
echo "ncu (bytes, hit rates): exit $?"
# ... and more, apart, so that a name this ncu does not know costs nothing above
TWINS_ONCE=1 timeout 300 "$NCU" --clock-control none --kernel-name regex:^tw_ --csv \
    --metrics smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
    "$BUILD/bench/twins" > "$OUT/twins-ncu2.csv" 2> "$OUT/twins-ncu2.err"
echo "ncu (instructions, occupancy, atomics): exit $?"
