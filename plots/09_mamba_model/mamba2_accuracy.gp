# Token accuracy at the copy positions, training batches: Mamba-2 and the selective model -- run `gnuplot mamba2_accuracy.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'mamba2_accuracy.svg'
set title 'Token accuracy at the copy positions, training batches: Mamba-2 and the selective model' noenhanced
set xlabel 'step' noenhanced
set ylabel 'accuracy (%)' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom right
set yrange [0:100]
plot 'mamba2_accuracy.dat' index 0 using 1:2 with lines lw 2 title 'selective, seed 1' noenhanced, \
     'mamba2_accuracy.dat' index 1 using 1:2 with lines lw 2 title 'selective, seed 2' noenhanced, \
     'mamba2_accuracy.dat' index 2 using 1:2 with lines lw 2 title 'Mamba-2, seed 1' noenhanced, \
     'mamba2_accuracy.dat' index 3 using 1:2 with lines lw 2 title 'Mamba-2, seed 2' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'mamba2_accuracy.txt'
set title 'Token accuracy at the copy positions, training batches: Mamba-2 and the selective model' noenhanced
set xlabel 'step' noenhanced
set ylabel 'accuracy (%)' noenhanced
set key below
set key inside bottom right
set yrange [0:100]
plot 'mamba2_accuracy.dat' index 0 using 1:2 with lines title 'selective, seed 1' noenhanced, \
     'mamba2_accuracy.dat' index 1 using 1:2 with lines title 'selective, seed 2' noenhanced, \
     'mamba2_accuracy.dat' index 2 using 1:2 with lines title 'Mamba-2, seed 1' noenhanced, \
     'mamba2_accuracy.dat' index 3 using 1:2 with lines title 'Mamba-2, seed 2' noenhanced
unset output
