# Memory kept for h between the passes (fp32) -- run `gnuplot memory_kept.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'memory_kept.svg'
set title 'Memory kept for h between the passes (fp32)' noenhanced
set xlabel 'sequence length L (one sequence)' noenhanced
set ylabel 'bytes' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top left
plot 'memory_kept.dat' index 0 using 1:2 with lines lw 2 title 'store every h (versions 1-3)' noenhanced, \
     'memory_kept.dat' index 1 using 1:2 with lines lw 2 title 'one state per chunk of 256 (version 4)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'memory_kept.txt'
set title 'Memory kept for h between the passes (fp32)' noenhanced
set xlabel 'sequence length L (one sequence)' noenhanced
set ylabel 'bytes' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside top left
plot 'memory_kept.dat' index 0 using 1:2 with lines title 'store every h (versions 1-3)' noenhanced, \
     'memory_kept.dat' index 1 using 1:2 with lines title 'one state per chunk of 256 (version 4)' noenhanced
unset output
