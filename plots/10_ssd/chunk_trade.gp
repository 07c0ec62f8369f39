# FLOPs of the chunked SSD against Q (2.7B layer, L 2048) -- run `gnuplot chunk_trade.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'chunk_trade.svg'
set title 'FLOPs of the chunked SSD against Q (2.7B layer, L 2048)' noenhanced
set xlabel 'chunk size Q' noenhanced
set ylabel 'GFLOP' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set logscale x 2
set format x '%g'
set xrange [12:1400]
set xtics (16, 32, 64, 128, 256, 512, 1024)
set key inside top left
plot 'chunk_trade.dat' index 0 using 1:2 with linespoints lw 2 title 'inside chunks' noenhanced, \
     'chunk_trade.dat' index 1 using 1:2 with linespoints lw 2 title 'chunk states, passing, to output' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'chunk_trade.txt'
set title 'FLOPs of the chunked SSD against Q (2.7B layer, L 2048)' noenhanced
set xlabel 'chunk size Q' noenhanced
set ylabel 'GFLOP' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
set logscale x 2
set format x '%g'
set xrange [12:1400]
set xtics (16, 32, 64, 128, 256, 512, 1024)
set key inside top left
plot 'chunk_trade.dat' index 0 using 1:2 with lines title 'inside chunks' noenhanced, \
     'chunk_trade.dat' index 1 using 1:2 with lines title 'chunk states, passing, to output' noenhanced
unset output
