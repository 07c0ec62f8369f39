# h_k = a_k h_{k-1} + b_k over N elements: GB/s (12 bytes per element) -- run `gnuplot bench_throughput.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bench_throughput.svg'
set title 'h_k = a_k h_{k-1} + b_k over N elements: GB/s (12 bytes per element)'
set xlabel 'N (elements)'
set ylabel 'GB/s'
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
set yrange [0.1:*]
plot 'bench_throughput.dat' index 0 using 1:2 with linespoints lw 2 title 'CPU fp32 loop (1 core)' noenhanced, \
     'bench_throughput.dat' index 1 using 1:2 with lines lw 3 dt 2 lc rgb 'black' title 'copy (cudaMemcpy D2D)' noenhanced, \
     'bench_throughput.dat' index 2 using 1:2 with linespoints lw 2 title '1 ema_one_thread' noenhanced, \
     'bench_throughput.dat' index 3 using 1:2 with linespoints lw 2 title '2 ema_warp_pairs' noenhanced, \
     'bench_throughput.dat' index 4 using 1:2 with linespoints lw 2 title '3 ema_cub_block' noenhanced, \
     'bench_throughput.dat' index 5 using 1:2 with linespoints lw 2 title '4 ema_look_back' noenhanced, \
     'bench_throughput.dat' index 6 using 1:2 with linespoints lw 2 title '5 ema_look_back_window' noenhanced, \
     'bench_throughput.dat' index 7 using 1:2 with linespoints lw 2 title '6 cub_device_scan' noenhanced, \
     'bench_throughput.dat' index 8 using 1:2 with linespoints lw 2 title '7 cub_device_scan_float2' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bench_throughput.txt'
set title 'h_k = a_k h_{k-1} + b_k over N elements: GB/s (12 bytes per element)' noenhanced
set xlabel 'N (elements)' noenhanced
set ylabel 'GB/s' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key outside right top
set yrange [0.1:*]
plot 'bench_throughput.dat' index 0 using 1:2 with lines title 'CPU fp32 loop (1 core)' noenhanced, \
     'bench_throughput.dat' index 1 using 1:2 with lines title 'copy (cudaMemcpy D2D)' noenhanced, \
     'bench_throughput.dat' index 2 using 1:2 with lines title '1 ema_one_thread' noenhanced, \
     'bench_throughput.dat' index 3 using 1:2 with lines title '2 ema_warp_pairs' noenhanced, \
     'bench_throughput.dat' index 4 using 1:2 with lines title '3 ema_cub_block' noenhanced, \
     'bench_throughput.dat' index 5 using 1:2 with lines title '4 ema_look_back' noenhanced, \
     'bench_throughput.dat' index 6 using 1:2 with lines title '5 ema_look_back_window' noenhanced, \
     'bench_throughput.dat' index 7 using 1:2 with lines title '6 cub_device_scan' noenhanced, \
     'bench_throughput.dat' index 8 using 1:2 with lines title '7 cub_device_scan_float2' noenhanced
unset output
