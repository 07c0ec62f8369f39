# Each version's time over its floor (lower is better) -- run `gnuplot bench_floor.gp` in this directory
set terminal svg size 760,760 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'bench_floor.svg'
set title 'Each version''s time over its floor (lower is better)' noenhanced
set xlabel '' noenhanced
set ylabel 'time ÷ floor' noenhanced
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set xtics ("fp32 8×1536×2048" 1, "bf16 8×1536×2048" 2, "fp32 1×5120×8192" 3, "bf16 1×5120×8192" 4, "fp32 16×1536×512" 5, "bf16 16×1536×512" 6, "fp32 8×1536×2048 N=64" 7, "fp32 1×1536×32768" 8, "fp32 8×1536×2048 B,C const" 9, "fp16 8×1536×2048" 10, "fp32 2×4×512 N=8" 11) rotate by 35 right font ',10'
set xrange [0.5:11.5]
set key below maxrows 3 font ',10'
set grid ytics
set lmargin 12
plot 'bench_floor.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'v1 forward' noenhanced, \
     'bench_floor.dat' index 1 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 1 title 'v1 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 2 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'v2 forward' noenhanced, \
     'bench_floor.dat' index 3 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 2 title 'v2 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 4 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'v3 forward' noenhanced, \
     'bench_floor.dat' index 5 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 3 title 'v3 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 6 using 1:2 with linespoints lw 2 pt 7 lc 4 title 'v4 forward' noenhanced, \
     'bench_floor.dat' index 7 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 4 title 'v4 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 8 using 1:2 with linespoints lw 2 pt 7 lc 5 title 'v5 forward' noenhanced, \
     'bench_floor.dat' index 9 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 5 title 'v5 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 10 using 1:2 with linespoints lw 2 pt 7 lc 6 title 'v5 + kept h forward' noenhanced, \
     'bench_floor.dat' index 11 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 6 title 'v5 + kept h fwd+bwd' noenhanced, \
     'bench_floor.dat' index 12 using 1:2 with linespoints lw 2 pt 7 lc 7 title 'auto forward' noenhanced, \
     'bench_floor.dat' index 13 using 1:2 with linespoints lw 2 dt 2 pt 5 lc 7 title 'auto fwd+bwd' noenhanced, \
     'bench_floor.dat' index 14 using 1:2 with points pt 6 ps 1.5 title 'official forward (this run)' noenhanced, \
     'bench_floor.dat' index 15 using 1:2 with points pt 4 ps 1.5 title 'official fwd+bwd (this run)' noenhanced, \
     'bench_floor.dat' index 16 using 1:2 with lines lw 1 dt 2 lc rgb 'gray40' title 'goal, forward: 3×' noenhanced, \
     'bench_floor.dat' index 17 using 1:2 with lines lw 1 dt 3 lc rgb 'gray40' title 'goal, fwd+bwd: 5×' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'bench_floor.txt'
set title 'Each version''s time over its floor (lower is better)' noenhanced
set xlabel '' noenhanced
set ylabel 'time ÷ floor' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set xtics ("fp32 8×1536×2048" 1, "bf16 8×1536×2048" 2, "fp32 1×5120×8192" 3, "bf16 1×5120×8192" 4, "fp32 16×1536×512" 5, "bf16 16×1536×512" 6, "fp32 8×1536×2048 N=64" 7, "fp32 1×1536×32768" 8, "fp32 8×1536×2048 B,C const" 9, "fp16 8×1536×2048" 10, "fp32 2×4×512 N=8" 11) rotate by 35 right font ',10'
set xrange [0.5:11.5]
set key below maxrows 3 font ',10'
set grid ytics
set lmargin 12
plot 'bench_floor.dat' index 0 using 1:2 with lines title 'v1 forward' noenhanced, \
     'bench_floor.dat' index 1 using 1:2 with lines title 'v1 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 2 using 1:2 with lines title 'v2 forward' noenhanced, \
     'bench_floor.dat' index 3 using 1:2 with lines title 'v2 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 4 using 1:2 with lines title 'v3 forward' noenhanced, \
     'bench_floor.dat' index 5 using 1:2 with lines title 'v3 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 6 using 1:2 with lines title 'v4 forward' noenhanced, \
     'bench_floor.dat' index 7 using 1:2 with lines title 'v4 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 8 using 1:2 with lines title 'v5 forward' noenhanced, \
     'bench_floor.dat' index 9 using 1:2 with lines title 'v5 fwd+bwd' noenhanced, \
     'bench_floor.dat' index 10 using 1:2 with lines title 'v5 + kept h forward' noenhanced, \
     'bench_floor.dat' index 11 using 1:2 with lines title 'v5 + kept h fwd+bwd' noenhanced, \
     'bench_floor.dat' index 12 using 1:2 with lines title 'auto forward' noenhanced, \
     'bench_floor.dat' index 13 using 1:2 with lines title 'auto fwd+bwd' noenhanced, \
     'bench_floor.dat' index 14 using 1:2 with lines title 'official forward (this run)' noenhanced, \
     'bench_floor.dat' index 15 using 1:2 with lines title 'official fwd+bwd (this run)' noenhanced, \
     'bench_floor.dat' index 16 using 1:2 with lines title 'goal, forward: 3×' noenhanced, \
     'bench_floor.dat' index 17 using 1:2 with lines title 'goal, fwd+bwd: 5×' noenhanced
unset output
