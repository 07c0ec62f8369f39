# bf16 forward against the chunk size -- run `gnuplot time_vs_chunk.gp` in this directory
set terminal svg size 900,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'time_vs_chunk.svg'
set title 'bf16 forward against the chunk size' noenhanced
set xlabel 'chunk size (positions)' noenhanced
set ylabel 'ms' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set logscale x 2
set format x '%g'
set xrange [12:700]
set xtics (16, 32, 64, 128, 256, 512)
set autoscale yfix
set offsets 0, 0, graph 0.08, graph 0.08
set format y '%g'
set ytics (0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
plot 'time_vs_chunk.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#7570b3' title 'version 2, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 1 using 1:2 with points pt 5 ps 1.6 lc rgb '#7570b3' title 'version 3, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 2 using 1:2 with points pt 9 ps 1.8 lc rgb '#7570b3' title 'official kernels, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1b9e77' title 'version 2, 130M' noenhanced, \
     'time_vs_chunk.dat' index 4 using 1:2 with points pt 5 ps 1.6 lc rgb '#1b9e77' title 'version 3, 130M' noenhanced, \
     'time_vs_chunk.dat' index 5 using 1:2 with points pt 9 ps 1.8 lc rgb '#1b9e77' title 'official kernels, 130M' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'time_vs_chunk.txt'
set title 'bf16 forward against the chunk size' noenhanced
set xlabel 'chunk size (positions)' noenhanced
set ylabel 'ms' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set logscale x 2
set format x '%g'
set xrange [12:700]
set xtics (16, 32, 64, 128, 256, 512)
set autoscale yfix
set offsets 0, 0, graph 0.08, graph 0.08
set format y '%g'
set ytics (0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
plot 'time_vs_chunk.dat' index 0 using 1:2 with lines title 'version 2, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 1 using 1:2 with lines title 'version 3, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 2 using 1:2 with lines title 'official kernels, 2.7B layer' noenhanced, \
     'time_vs_chunk.dat' index 3 using 1:2 with lines title 'version 2, 130M' noenhanced, \
     'time_vs_chunk.dat' index 4 using 1:2 with lines title 'version 3, 130M' noenhanced, \
     'time_vs_chunk.dat' index 5 using 1:2 with lines title 'official kernels, 130M' noenhanced
unset output
