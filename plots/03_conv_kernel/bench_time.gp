# Causal convolution of 4 × 256 rows of length n -- run `gnuplot bench_time.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bench_time.svg'
set title 'Causal convolution of 4 × 256 rows of length n' noenhanced
set xlabel 'n' noenhanced
set ylabel 'median time (ms)' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right bottom
set yrange [1e-6:*]
plot 'bench_time.dat' index 0 using 1:2 with linespoints lw 2 title 'CPU direct, fp64 (1 core)' noenhanced, \
     'bench_time.dat' index 1 using 1:2 with linespoints lw 2 title 'GPU 1 direct' noenhanced, \
     'bench_time.dat' index 2 using 1:2 with linespoints lw 2 title 'GPU 2 direct' noenhanced, \
     'bench_time.dat' index 3 using 1:2 with linespoints lw 2 title 'GPU 3 direct' noenhanced, \
     'bench_time.dat' index 4 using 1:2 with linespoints lw 2 title 'GPU 4 direct' noenhanced, \
     'bench_time.dat' index 5 using 1:2 with linespoints lw 2 title 'GPU 5 FFT (cuFFT)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bench_time.txt'
set title 'Causal convolution of 4 × 256 rows of length n' noenhanced
set xlabel 'n' noenhanced
set ylabel 'median time (ms)' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside right bottom
set yrange [1e-6:*]
plot 'bench_time.dat' index 0 using 1:2 with lines title 'CPU direct, fp64 (1 core)' noenhanced, \
     'bench_time.dat' index 1 using 1:2 with lines title 'GPU 1 direct' noenhanced, \
     'bench_time.dat' index 2 using 1:2 with lines title 'GPU 2 direct' noenhanced, \
     'bench_time.dat' index 3 using 1:2 with lines title 'GPU 3 direct' noenhanced, \
     'bench_time.dat' index 4 using 1:2 with lines title 'GPU 4 direct' noenhanced, \
     'bench_time.dat' index 5 using 1:2 with lines title 'GPU 5 FFT (cuFFT)' noenhanced
unset output
