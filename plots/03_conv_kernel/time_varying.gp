# Impulse responses M_{t,s} / M_{s,s} under a varying Δ_t -- run `gnuplot time_varying.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'time_varying.svg'
set title 'Impulse responses M_{t,s} / M_{s,s} under a varying Δ_t'
set xlabel 'lag t - s'
set ylabel 'M_{t,s} / M_{s,s}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right top
plot 'time_varying.dat' index 0 using 1:2 with lines lw 2 title 'impulse at s = 0 (Δ_s = 0.02)', \
     'time_varying.dat' index 1 using 1:2 with lines lw 2 title 'impulse at s = 10 (Δ_s = 0.02)', \
     'time_varying.dat' index 2 using 1:2 with lines lw 2 title 'impulse at s = 20 (Δ_s = 0.5)', \
     'time_varying.dat' index 3 using 1:2 with lines lw 2 title 'impulse at s = 30 (Δ_s = 0.5)', \
     'time_varying.dat' index 4 using 1:2 with lines lw 3 dt 2 lc rgb 'black' title 'fixed Δ = 0.1 (K̄, any s)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'time_varying.txt'
set title 'Impulse responses M_{t,s} / M_{s,s} under a varying Δ_t' noenhanced
set xlabel 'lag t - s' noenhanced
set ylabel 'M_{t,s} / M_{s,s}' noenhanced
set key below
set key inside right top
plot 'time_varying.dat' index 0 using 1:2 with lines title 'impulse at s = 0 (Δ_s = 0.02)' noenhanced, \
     'time_varying.dat' index 1 using 1:2 with lines title 'impulse at s = 10 (Δ_s = 0.02)' noenhanced, \
     'time_varying.dat' index 2 using 1:2 with lines title 'impulse at s = 20 (Δ_s = 0.5)' noenhanced, \
     'time_varying.dat' index 3 using 1:2 with lines title 'impulse at s = 30 (Δ_s = 0.5)' noenhanced, \
     'time_varying.dat' index 4 using 1:2 with lines title 'fixed Δ = 0.1 (K̄, any s)' noenhanced
unset output
