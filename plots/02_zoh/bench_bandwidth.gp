# Discretization bandwidth (batch 8, D = 1536, N = 16) -- run `gnuplot bench_bandwidth.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bench_bandwidth.svg'
set title 'Discretization bandwidth (batch 8, D = 1536, N = 16)' noenhanced
set xlabel 'bytes moved (MB)' noenhanced
set ylabel 'GB/s' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside left bottom maxrows 4 spacing 0.9 font ',11'
set yrange [0:4819]
plot 'bench_bandwidth.dat' index 0 using 1:2 with linespoints lw 2 title 'kernel 1, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 1 using 1:2 with linespoints lw 2 title 'kernel 1, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 2 using 1:2 with linespoints lw 2 title 'kernel 2, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 3 using 1:2 with linespoints lw 2 title 'kernel 2, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 4 using 1:2 with linespoints lw 2 title 'kernel 3, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 5 using 1:2 with linespoints lw 2 title 'kernel 3, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 6 using 1:2 with linespoints lw 2 title 'cudaMemset of Ā and B̄' noenhanced, \
     'bench_bandwidth.dat' index 7 using 1:2 with lines lw 2 dt 2 lc rgb 'black' title 'device-to-device copy' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bench_bandwidth.txt'
set title 'Discretization bandwidth (batch 8, D = 1536, N = 16)' noenhanced
set xlabel 'bytes moved (MB)' noenhanced
set ylabel 'GB/s' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
set key inside left bottom maxrows 4 spacing 0.9 font ',11'
set yrange [0:4819]
plot 'bench_bandwidth.dat' index 0 using 1:2 with lines title 'kernel 1, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 1 using 1:2 with lines title 'kernel 1, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 2 using 1:2 with lines title 'kernel 2, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 3 using 1:2 with lines title 'kernel 2, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 4 using 1:2 with lines title 'kernel 3, ZOH' noenhanced, \
     'bench_bandwidth.dat' index 5 using 1:2 with lines title 'kernel 3, Mamba' noenhanced, \
     'bench_bandwidth.dat' index 6 using 1:2 with lines title 'cudaMemset of Ā and B̄' noenhanced, \
     'bench_bandwidth.dat' index 7 using 1:2 with lines title 'device-to-device copy' noenhanced
unset output
