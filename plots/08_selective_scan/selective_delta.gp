# The selective step size: δ follows the input, h follows δ -- run `gnuplot selective_delta.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'selective_delta.svg'
set title 'The selective step size: δ follows the input, h follows δ' noenhanced
set xlabel 'step t' noenhanced
set ylabel '' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top right
set yrange [-0.5:4.5]
plot 'selective_delta.dat' index 0 using 1:2 with lines lw 1 title 'input u_t', \
     'selective_delta.dat' index 1 using 1:2 with lines lw 2 title 'step size δ_t', \
     'selective_delta.dat' index 2 using 1:2 with lines lw 2 title 'state h_t (A = −1)'
unset output
reset
set terminal dumb size 78,26 mono
set output 'selective_delta.txt'
set title 'The selective step size: δ follows the input, h follows δ' noenhanced
set xlabel 'step t' noenhanced
set ylabel '' noenhanced
set key below
set key inside top right
set yrange [-0.5:4.5]
plot 'selective_delta.dat' index 0 using 1:2 with lines title 'input u_t' noenhanced, \
     'selective_delta.dat' index 1 using 1:2 with lines title 'step size δ_t' noenhanced, \
     'selective_delta.dat' index 2 using 1:2 with lines title 'state h_t (A = −1)' noenhanced
unset output
