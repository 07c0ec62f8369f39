# fp32 error of h against fp64 (b uniform in [-1, 1)) -- run `gnuplot precision_vs_length.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'precision_vs_length.svg'
set title 'fp32 error of h against fp64 (b uniform in [-1, 1))' noenhanced
set xlabel 'L' noenhanced
set ylabel 'max |h(fp32) - h(fp64)|' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top left
set yrange [*:0.1]
plot 'precision_vs_length.dat' index 0 using 1:2 with linespoints lw 2 title 'loop, a = 1 (running sum)' noenhanced, \
     'precision_vs_length.dat' index 1 using 1:2 with linespoints lw 2 dt 2 title 'tree, a = 1 (running sum)' noenhanced, \
     'precision_vs_length.dat' index 2 using 1:2 with linespoints lw 2 title 'loop, a in [0.999, 1)' noenhanced, \
     'precision_vs_length.dat' index 3 using 1:2 with linespoints lw 2 dt 2 title 'tree, a in [0.999, 1)' noenhanced, \
     'precision_vs_length.dat' index 4 using 1:2 with linespoints lw 2 title 'loop, a in [0.95, 1) (the checks)' noenhanced, \
     'precision_vs_length.dat' index 5 using 1:2 with linespoints lw 2 dt 2 title 'tree, a in [0.95, 1) (the checks)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'precision_vs_length.txt'
set title 'fp32 error of h against fp64 (b uniform in [-1, 1))' noenhanced
set xlabel 'L' noenhanced
set ylabel 'max |h(fp32) - h(fp64)|' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside top left
set yrange [*:0.1]
plot 'precision_vs_length.dat' index 0 using 1:2 with lines title 'loop, a = 1 (running sum)' noenhanced, \
     'precision_vs_length.dat' index 1 using 1:2 with lines title 'tree, a = 1 (running sum)' noenhanced, \
     'precision_vs_length.dat' index 2 using 1:2 with lines title 'loop, a in [0.999, 1)' noenhanced, \
     'precision_vs_length.dat' index 3 using 1:2 with lines title 'tree, a in [0.999, 1)' noenhanced, \
     'precision_vs_length.dat' index 4 using 1:2 with lines title 'loop, a in [0.95, 1) (the checks)' noenhanced, \
     'precision_vs_length.dat' index 5 using 1:2 with lines title 'tree, a in [0.95, 1) (the checks)' noenhanced
unset output
