# Tiny models on the CPU: token accuracy of the training batches (mean of 50 steps) -- run `gnuplot cpu_training_accuracy.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'cpu_training_accuracy.svg'
set title 'Tiny models on the CPU: token accuracy of the training batches (mean of 50 steps)' noenhanced
set xlabel 'step' noenhanced
set ylabel 'accuracy (%)' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom right
set yrange [0:100]
plot 'cpu_training_accuracy.dat' index 0 using 1:2 with lines lw 2 title 'selective model' noenhanced, \
     'cpu_training_accuracy.dat' index 1 using 1:2 with lines lw 2 title 'LTI model' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'cpu_training_accuracy.txt'
set title 'Tiny models on the CPU: token accuracy of the training batches (mean of 50 steps)' noenhanced
set xlabel 'step' noenhanced
set ylabel 'accuracy (%)' noenhanced
set key below
set key inside bottom right
set yrange [0:100]
plot 'cpu_training_accuracy.dat' index 0 using 1:2 with lines title 'selective model' noenhanced, \
     'cpu_training_accuracy.dat' index 1 using 1:2 with lines title 'LTI model' noenhanced
unset output
