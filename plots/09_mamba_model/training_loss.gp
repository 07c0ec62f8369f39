# Training loss (cross-entropy at the copy positions) -- run `gnuplot training_loss.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'training_loss.svg'
set title 'Training loss (cross-entropy at the copy positions)' noenhanced
set xlabel 'step' noenhanced
set ylabel 'loss' noenhanced
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom left
plot 'training_loss.dat' index 0 using 1:2 with lines lw 2 title 'selective, seed 1' noenhanced, \
     'training_loss.dat' index 1 using 1:2 with lines lw 2 title 'LTI, seed 1' noenhanced, \
     'training_loss.dat' index 2 using 1:2 with lines lw 2 title 'selective, seed 2' noenhanced, \
     'training_loss.dat' index 3 using 1:2 with lines lw 2 title 'LTI, seed 2' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'training_loss.txt'
set title 'Training loss (cross-entropy at the copy positions)' noenhanced
set xlabel 'step' noenhanced
set ylabel 'loss' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set key inside bottom left
plot 'training_loss.dat' index 0 using 1:2 with lines title 'selective, seed 1' noenhanced, \
     'training_loss.dat' index 1 using 1:2 with lines title 'LTI, seed 1' noenhanced, \
     'training_loss.dat' index 2 using 1:2 with lines title 'selective, seed 2' noenhanced, \
     'training_loss.dat' index 3 using 1:2 with lines title 'LTI, seed 2' noenhanced
unset output
