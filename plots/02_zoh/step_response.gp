# Step response, Δ = 0.25 -- run `gnuplot step_response.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'step_response.svg'
set title 'Step response, Δ = 0.25' noenhanced
set xlabel 'time t' noenhanced
set ylabel 'y(t)' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right bottom
set yrange [-1.2:2.2]
plot 'step_response.dat' index 0 using 1:2 with lines lw 3 lc rgb '#bbbbbb' title 'exact' noenhanced, \
     'step_response.dat' index 1 using 1:2 with points pt 7 ps 0.6 title 'ZOH' noenhanced, \
     'step_response.dat' index 2 using 1:2 with points pt 7 ps 0.6 title 'bilinear' noenhanced, \
     'step_response.dat' index 3 using 1:2 with points pt 7 ps 0.6 title 'Euler' noenhanced, \
     'step_response.dat' index 4 using 1:2 with points pt 7 ps 0.6 title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'step_response.txt'
set title 'Step response, Δ = 0.25' noenhanced
set xlabel 'time t' noenhanced
set ylabel 'y(t)' noenhanced
set key below
set key inside right bottom
set yrange [-1.2:2.2]
plot 'step_response.dat' index 0 using 1:2 with lines title 'exact' noenhanced, \
     'step_response.dat' index 1 using 1:2 with lines title 'ZOH' noenhanced, \
     'step_response.dat' index 2 using 1:2 with lines title 'bilinear' noenhanced, \
     'step_response.dat' index 3 using 1:2 with lines title 'Euler' noenhanced, \
     'step_response.dat' index 4 using 1:2 with lines title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
