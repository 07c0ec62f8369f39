# FLOPs of the chunked SSD against the chunk size (2.7B layer, L 2048) -- run `gnuplot chunk_trade.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'chunk_trade.svg'
set title 'FLOPs of the chunked SSD against the chunk size (2.7B layer, L 2048)' noenhanced
set xlabel 'chunk size Q' noenhanced
set ylabel 'GFLOP' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
plot 'chunk_trade.dat' index 0 using 1:2 with linespoints lw 2 title 'inside chunks' noenhanced, \
     'chunk_trade.dat' index 1 using 1:2 with linespoints lw 2 title 'chunk states, passing, to output' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'chunk_trade.txt'
set title 'FLOPs of the chunked SSD against the chunk size (2.7B layer, L 2048)' noenhanced
set xlabel 'chunk size Q' noenhanced
set ylabel 'GFLOP' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
plot 'chunk_trade.dat' index 0 using 1:2 with lines title 'inside chunks' noenhanced, \
     'chunk_trade.dat' index 1 using 1:2 with lines title 'chunk states, passing, to output' noenhanced
unset output
