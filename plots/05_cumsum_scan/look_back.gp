# Decoupled look-back: the state of each tile, step by step -- run `gnuplot look_back.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'look_back.svg'
set title 'Decoupled look-back: the state of each tile, step by step' noenhanced
set xlabel 'time step' noenhanced
set ylabel 'tile' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [-0.7:15.7]
set ytics 0,1
set xrange [-0.7:15.7]
plot 'look_back.dat' index 0 using 1:2 with points pt 5 ps 1.6 lc rgb '#bbbbbb' title 'reading and reducing' noenhanced, \
     'look_back.dat' index 1 using 1:2 with points pt 5 ps 1.6 lc rgb '#ff7f0e' title 'aggregate published, looking back' noenhanced, \
     'look_back.dat' index 2 using 1:2 with points pt 5 ps 1.6 lc rgb '#2ca02c' title 'inclusive prefix published' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'look_back.txt'
set title 'Decoupled look-back: the state of each tile, step by step' noenhanced
set xlabel 'time step' noenhanced
set ylabel 'tile' noenhanced
set key below
set yrange [-0.7:15.7]
set ytics 0,1
set xrange [-0.7:15.7]
plot 'look_back.dat' index 0 using 1:2 with lines title 'reading and reducing' noenhanced, \
     'look_back.dat' index 1 using 1:2 with lines title 'aggregate published, looking back' noenhanced, \
     'look_back.dat' index 2 using 1:2 with lines title 'inclusive prefix published' noenhanced
unset output
