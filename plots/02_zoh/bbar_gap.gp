# How much larger Mamba's B̄ = ΔB is than ZOH's B̄ -- run `gnuplot bbar_gap.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bbar_gap.svg'
set title 'How much larger Mamba''s B̄ = ΔB is than ZOH''s B̄' noenhanced
set xlabel 'Δ|a|' noenhanced
set ylabel 'ΔB / B̄(ZOH) − 1' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right bottom
set object 1 rect from 0.001, graph 0 to 1.6, graph 1 fc rgb '#eeeeee' behind
set label 1 'Mamba at initialisation' at 0.0015, graph 0.93
plot 'bbar_gap.dat' index 0 using 1:2 with lines lw 2 title 'z/(e^z − 1) − 1', \
     'bbar_gap.dat' index 1 using 1:2 with lines lw 2 dt 2 title 'Δ|a|/2 (first order)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bbar_gap.txt'
set title 'How much larger Mamba''s B̄ = ΔB is than ZOH''s B̄' noenhanced
set xlabel 'Δ|a|' noenhanced
set ylabel 'ΔB / B̄(ZOH) − 1' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside right bottom
set object 1 rect from 0.001, graph 0 to 1.6, graph 1 fc rgb '#eeeeee' behind
set label 1 'Mamba at initialisation' at 0.0015, graph 0.93
plot 'bbar_gap.dat' index 0 using 1:2 with lines title 'z/(e^z − 1) − 1' noenhanced, \
     'bbar_gap.dat' index 1 using 1:2 with lines title 'Δ|a|/2 (first order)' noenhanced
unset output
