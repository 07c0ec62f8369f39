# Impulse response: K_k / Δ over [kΔ, (k+1)Δ), Δ = 0.25 -- run `gnuplot impulse_response.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'impulse_response.svg'
set title 'Impulse response: K_k / Δ over [kΔ, (k+1)Δ), Δ = 0.25'
set xlabel 'time t'
set ylabel 'K_k / Δ'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside left bottom
set yrange [-6:4]
set xzeroaxis
plot 'impulse_response.dat' index 0 using 1:2 with lines lw 3 lc rgb '#bbbbbb' title 'exact g(t)' noenhanced, \
     'impulse_response.dat' index 1 using 1:2 with steps lw 2 title 'ZOH' noenhanced, \
     'impulse_response.dat' index 2 using 1:2 with steps lw 2 title 'bilinear' noenhanced, \
     'impulse_response.dat' index 3 using 1:2 with steps lw 2 title 'Euler' noenhanced, \
     'impulse_response.dat' index 4 using 1:2 with steps lw 2 title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'impulse_response.txt'
set title 'Impulse response: K_k / Δ over [kΔ, (k+1)Δ), Δ = 0.25' noenhanced
set xlabel 'time t' noenhanced
set ylabel 'K_k / Δ' noenhanced
set key below
set key inside left bottom
set yrange [-6:4]
set xzeroaxis
plot 'impulse_response.dat' index 0 using 1:2 with lines title 'exact g(t)' noenhanced, \
     'impulse_response.dat' index 1 using 1:2 with lines title 'ZOH' noenhanced, \
     'impulse_response.dat' index 2 using 1:2 with lines title 'bilinear' noenhanced, \
     'impulse_response.dat' index 3 using 1:2 with lines title 'Euler' noenhanced, \
     'impulse_response.dat' index 4 using 1:2 with lines title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
