# S4D-Lin kernels for 1024 channels, N = 64 -- run `gnuplot bench_time.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bench_time.svg'
set title 'S4D-Lin kernels for 1024 channels, N = 64' noenhanced
set xlabel 'length L' noenhanced
set ylabel 'median time (ms)' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right bottom
plot 'bench_time.dat' index 0 using 1:2 with linespoints lw 2 title 'kernel 1' noenhanced, \
     'bench_time.dat' index 1 using 1:2 with linespoints lw 2 title 'kernel 2' noenhanced, \
     'bench_time.dat' index 2 using 1:2 with linespoints lw 2 title 'kernel 3' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bench_time.txt'
set title 'S4D-Lin kernels for 1024 channels, N = 64' noenhanced
set xlabel 'length L' noenhanced
set ylabel 'median time (ms)' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside right bottom
plot 'bench_time.dat' index 0 using 1:2 with lines title 'kernel 1' noenhanced, \
     'bench_time.dat' index 1 using 1:2 with lines title 'kernel 2' noenhanced, \
     'bench_time.dat' index 2 using 1:2 with lines title 'kernel 3' noenhanced
unset output
