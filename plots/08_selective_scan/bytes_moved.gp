# Bytes moved and kept, batch 8, dim 1536, dstate 16, fp32 -- run `gnuplot bytes_moved.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bytes_moved.svg'
set title 'Bytes moved and kept, batch 8, dim 1536, dstate 16, fp32' noenhanced
set xlabel 'seqlen' noenhanced
set ylabel 'bytes' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top left
set yrange [1e5:1e15]
plot 'bytes_moved.dat' index 0 using 1:2 with linespoints lw 2 pt 5 title 'forward, unfused (Ā, B̄u in memory)' noenhanced, \
     'bytes_moved.dat' index 1 using 1:2 with lines lw 2 dt 3 title 'kept: every state' noenhanced, \
     'bytes_moved.dat' index 2 using 1:2 with linespoints lw 2 pt 9 title 'forward + backward, fused' noenhanced, \
     'bytes_moved.dat' index 3 using 1:2 with linespoints lw 2 pt 7 title 'forward, fused' noenhanced, \
     'bytes_moved.dat' index 4 using 1:2 with lines lw 2 dt 2 title 'kept: one state per chunk' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bytes_moved.txt'
set title 'Bytes moved and kept, batch 8, dim 1536, dstate 16, fp32' noenhanced
set xlabel 'seqlen' noenhanced
set ylabel 'bytes' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside top left
set yrange [1e5:1e15]
plot 'bytes_moved.dat' index 0 using 1:2 with lines title 'forward, unfused (Ā, B̄u in memory)' noenhanced, \
     'bytes_moved.dat' index 1 using 1:2 with lines title 'kept: every state' noenhanced, \
     'bytes_moved.dat' index 2 using 1:2 with lines title 'forward + backward, fused' noenhanced, \
     'bytes_moved.dat' index 3 using 1:2 with lines title 'forward, fused' noenhanced, \
     'bytes_moved.dat' index 4 using 1:2 with lines title 'kept: one state per chunk' noenhanced
unset output
