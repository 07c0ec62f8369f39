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
plot 'bench_throughput.dat' index 0 using 1:2 with linespoints lw 2 title 'CPU fp32 loop (1 core)'
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
plot 'bench_throughput.dat' index 0 using 1:2 with lines title 'CPU fp32 loop (1 core)' noenhanced
unset output
