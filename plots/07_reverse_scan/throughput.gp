# Reverse pass throughput, 33554432 steps in all (fp32) -- run `gnuplot throughput.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'throughput.svg'
set title 'Reverse pass throughput, 33554432 steps in all (fp32)' noenhanced
set xlabel 'sequence length L (sequences = total / L)' noenhanced
set ylabel 'GB/s' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set offsets 0, 0, graph 0.1, 0
plot 'throughput.dat' index 0 using 1:2 with lines lw 3 dt 2 lc rgb 'black' title 'copy (cudaMemcpy D2D)' noenhanced, \
     'throughput.dat' index 1 using 1:2 with linespoints lw 2 title '1 sequential' noenhanced, \
     'throughput.dat' index 2 using 1:2 with linespoints lw 2 title '2 by reversed index' noenhanced, \
     'throughput.dat' index 3 using 1:2 with linespoints lw 2 title '3 block scan' noenhanced, \
     'throughput.dat' index 4 using 1:2 with linespoints lw 2 title '4 recompute h' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'throughput.txt'
set title 'Reverse pass throughput, 33554432 steps in all (fp32)' noenhanced
set xlabel 'sequence length L (sequences = total / L)' noenhanced
set ylabel 'GB/s' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
set offsets 0, 0, graph 0.1, 0
plot 'throughput.dat' index 0 using 1:2 with lines title 'copy (cudaMemcpy D2D)' noenhanced, \
     'throughput.dat' index 1 using 1:2 with lines title '1 sequential' noenhanced, \
     'throughput.dat' index 2 using 1:2 with lines title '2 by reversed index' noenhanced, \
     'throughput.dat' index 3 using 1:2 with lines title '3 block scan' noenhanced, \
     'throughput.dat' index 4 using 1:2 with lines title '4 recompute h' noenhanced
unset output
