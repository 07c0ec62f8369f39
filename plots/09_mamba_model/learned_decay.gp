# |A_n| of layer 1: the median over channels, per state -- run `gnuplot learned_decay.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'learned_decay.svg'
set title '|A_n| of layer 1: the median over channels, per state'
set xlabel 'state n'
set ylabel 'median |A_n|'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top left
plot 'learned_decay.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'selective model, trained' noenhanced, \
     'learned_decay.dat' index 1 using 1:2 with linespoints lw 2 pt 7 title 'LTI model, trained' noenhanced, \
     'learned_decay.dat' index 2 using 1:2 with lines lw 1 dt 2 title 'initial (S4D-real: n + 1)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'learned_decay.txt'
set title '|A_n| of layer 1: the median over channels, per state' noenhanced
set xlabel 'state n' noenhanced
set ylabel 'median |A_n|' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set key inside top left
plot 'learned_decay.dat' index 0 using 1:2 with lines title 'selective model, trained' noenhanced, \
     'learned_decay.dat' index 1 using 1:2 with lines title 'LTI model, trained' noenhanced, \
     'learned_decay.dat' index 2 using 1:2 with lines title 'initial (S4D-real: n + 1)' noenhanced
unset output
