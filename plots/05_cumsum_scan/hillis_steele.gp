# Hillis-Steele: each element adds the one 2^s places to its left -- run `gnuplot hillis_steele.gp` in this directory
set terminal svg size 760,440 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'hillis_steele.svg'
set title 'Hillis-Steele: each element adds the one 2^s places to its left'
set xlabel 'element j'
set ylabel ''
set grid lc rgb '#dddddd'
set key outside right top box opaque
set label '0' at 0,0.3 center font ',10' boxed front
set label '1' at 1,0.3 center font ',10' boxed front
set label '2' at 2,0.3 center font ',10' boxed front
set label '3' at 3,0.3 center font ',10' boxed front
set label '4' at 4,0.3 center font ',10' boxed front
set label '5' at 5,0.3 center font ',10' boxed front
set label '6' at 6,0.3 center font ',10' boxed front
set label '7' at 7,0.3 center font ',10' boxed front
set label '8' at 8,0.3 center font ',10' boxed front
set label '9' at 9,0.3 center font ',10' boxed front
set label '10' at 10,0.3 center font ',10' boxed front
set label '11' at 11,0.3 center font ',10' boxed front
set label '12' at 12,0.3 center font ',10' boxed front
set label '13' at 13,0.3 center font ',10' boxed front
set label '14' at 14,0.3 center font ',10' boxed front
set label '15' at 15,0.3 center font ',10' boxed front
set label '0' at 0,-0.7 center font ',10' boxed front
set label '0..1' at 1,-0.7 center font ',10' boxed front
set label '1..2' at 2,-0.7 center font ',10' boxed front
set label '2..3' at 3,-0.7 center font ',10' boxed front
set label '3..4' at 4,-0.7 center font ',10' boxed front
set label '4..5' at 5,-0.7 center font ',10' boxed front
set label '5..6' at 6,-0.7 center font ',10' boxed front
set label '6..7' at 7,-0.7 center font ',10' boxed front
set label '7..8' at 8,-0.7 center font ',10' boxed front
set label '8..9' at 9,-0.7 center font ',10' boxed front
set label '9..10' at 10,-0.7 center font ',10' boxed front
set label '10..11' at 11,-0.7 center font ',10' boxed front
set label '11..12' at 12,-0.7 center font ',10' boxed front
set label '12..13' at 13,-0.7 center font ',10' boxed front
set label '13..14' at 14,-0.7 center font ',10' boxed front
set label '14..15' at 15,-0.7 center font ',10' boxed front
set label '0' at 0,-1.7 center font ',10' boxed front
set label '0..1' at 1,-1.7 center font ',10' boxed front
set label '0..2' at 2,-1.7 center font ',10' boxed front
set label '0..3' at 3,-1.7 center font ',10' boxed front
set label '1..4' at 4,-1.7 center font ',10' boxed front
set label '2..5' at 5,-1.7 center font ',10' boxed front
set label '3..6' at 6,-1.7 center font ',10' boxed front
set label '4..7' at 7,-1.7 center font ',10' boxed front
set label '5..8' at 8,-1.7 center font ',10' boxed front
set label '6..9' at 9,-1.7 center font ',10' boxed front
set label '7..10' at 10,-1.7 center font ',10' boxed front
set label '8..11' at 11,-1.7 center font ',10' boxed front
set label '9..12' at 12,-1.7 center font ',10' boxed front
set label '10..13' at 13,-1.7 center font ',10' boxed front
set label '11..14' at 14,-1.7 center font ',10' boxed front
set label '12..15' at 15,-1.7 center font ',10' boxed front
set label '0' at 0,-2.7 center font ',10' boxed front
set label '0..1' at 1,-2.7 center font ',10' boxed front
set label '0..2' at 2,-2.7 center font ',10' boxed front
set label '0..3' at 3,-2.7 center font ',10' boxed front
set label '0..4' at 4,-2.7 center font ',10' boxed front
set label '0..5' at 5,-2.7 center font ',10' boxed front
set label '0..6' at 6,-2.7 center font ',10' boxed front
set label '0..7' at 7,-2.7 center font ',10' boxed front
set label '1..8' at 8,-2.7 center font ',10' boxed front
set label '2..9' at 9,-2.7 center font ',10' boxed front
set label '3..10' at 10,-2.7 center font ',10' boxed front
set label '4..11' at 11,-2.7 center font ',10' boxed front
set label '5..12' at 12,-2.7 center font ',10' boxed front
set label '6..13' at 13,-2.7 center font ',10' boxed front
set label '7..14' at 14,-2.7 center font ',10' boxed front
set label '8..15' at 15,-2.7 center font ',10' boxed front
set label '0' at 0,-3.7 center font ',10' boxed front
set label '0..1' at 1,-3.7 center font ',10' boxed front
set label '0..2' at 2,-3.7 center font ',10' boxed front
set label '0..3' at 3,-3.7 center font ',10' boxed front
set label '0..4' at 4,-3.7 center font ',10' boxed front
set label '0..5' at 5,-3.7 center font ',10' boxed front
set label '0..6' at 6,-3.7 center font ',10' boxed front
set label '0..7' at 7,-3.7 center font ',10' boxed front
set label '0..8' at 8,-3.7 center font ',10' boxed front
set label '0..9' at 9,-3.7 center font ',10' boxed front
set label '0..10' at 10,-3.7 center font ',10' boxed front
set label '0..11' at 11,-3.7 center font ',10' boxed front
set label '0..12' at 12,-3.7 center font ',10' boxed front
set label '0..13' at 13,-3.7 center font ',10' boxed front
set label '0..14' at 14,-3.7 center font ',10' boxed front
set label '0..15' at 15,-3.7 center font ',10' boxed front
set style textbox opaque noborder margins 0.5,0.5
set ytics ('input' -0, 'offset 1' -1, 'offset 2' -2, 'offset 4' -3, 'offset 8' -4)
unset key
set grid noxtics noytics
set xrange [-0.8:15.8]
set yrange [-4.5:0.7]
set xtics 0,1,15
set arrow from 0,-0.08 to 0,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-0.08 to 2,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-0.08 to 2,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-0.08 to 4,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-0.08 to 4,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-0.08 to 6,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-0.08 to 6,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-0.08 to 8,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-0.08 to 8,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-0.08 to 10,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-0.08 to 10,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-0.08 to 12,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-0.08 to 12,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 12,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-0.08 to 14,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 13,-0.08 to 14,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 14,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-1.08 to 0,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-1.08 to 1,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-1.08 to 5,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-1.08 to 5,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-1.08 to 9,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-1.08 to 9,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-1.08 to 13,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-1.08 to 13,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 12,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 13,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-2.08 to 0,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-2.08 to 1,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-2.08 to 2,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-2.08 to 3,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-2.08 to 11,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-2.08 to 11,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-3.08 to 0,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-3.08 to 1,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-3.08 to 2,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-3.08 to 3,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-3.08 to 4,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-3.08 to 5,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-3.08 to 6,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-3.08 to 7,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
plot 'hillis_steele.dat' index 0 using 1:2 with points pt 7 ps 0.9 lc rgb '#444444' title '' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'hillis_steele.txt'
set title 'Hillis-Steele: each element adds the one 2^s places to its left' noenhanced
set xlabel 'element j' noenhanced
set ylabel '' noenhanced
set key below
set label '0' at 0,0.3 center font ',10' boxed front
set label '1' at 1,0.3 center font ',10' boxed front
set label '2' at 2,0.3 center font ',10' boxed front
set label '3' at 3,0.3 center font ',10' boxed front
set label '4' at 4,0.3 center font ',10' boxed front
set label '5' at 5,0.3 center font ',10' boxed front
set label '6' at 6,0.3 center font ',10' boxed front
set label '7' at 7,0.3 center font ',10' boxed front
set label '8' at 8,0.3 center font ',10' boxed front
set label '9' at 9,0.3 center font ',10' boxed front
set label '10' at 10,0.3 center font ',10' boxed front
set label '11' at 11,0.3 center font ',10' boxed front
set label '12' at 12,0.3 center font ',10' boxed front
set label '13' at 13,0.3 center font ',10' boxed front
set label '14' at 14,0.3 center font ',10' boxed front
set label '15' at 15,0.3 center font ',10' boxed front
set label '0' at 0,-0.7 center font ',10' boxed front
set label '0..1' at 1,-0.7 center font ',10' boxed front
set label '1..2' at 2,-0.7 center font ',10' boxed front
set label '2..3' at 3,-0.7 center font ',10' boxed front
set label '3..4' at 4,-0.7 center font ',10' boxed front
set label '4..5' at 5,-0.7 center font ',10' boxed front
set label '5..6' at 6,-0.7 center font ',10' boxed front
set label '6..7' at 7,-0.7 center font ',10' boxed front
set label '7..8' at 8,-0.7 center font ',10' boxed front
set label '8..9' at 9,-0.7 center font ',10' boxed front
set label '9..10' at 10,-0.7 center font ',10' boxed front
set label '10..11' at 11,-0.7 center font ',10' boxed front
set label '11..12' at 12,-0.7 center font ',10' boxed front
set label '12..13' at 13,-0.7 center font ',10' boxed front
set label '13..14' at 14,-0.7 center font ',10' boxed front
set label '14..15' at 15,-0.7 center font ',10' boxed front
set label '0' at 0,-1.7 center font ',10' boxed front
set label '0..1' at 1,-1.7 center font ',10' boxed front
set label '0..2' at 2,-1.7 center font ',10' boxed front
set label '0..3' at 3,-1.7 center font ',10' boxed front
set label '1..4' at 4,-1.7 center font ',10' boxed front
set label '2..5' at 5,-1.7 center font ',10' boxed front
set label '3..6' at 6,-1.7 center font ',10' boxed front
set label '4..7' at 7,-1.7 center font ',10' boxed front
set label '5..8' at 8,-1.7 center font ',10' boxed front
set label '6..9' at 9,-1.7 center font ',10' boxed front
set label '7..10' at 10,-1.7 center font ',10' boxed front
set label '8..11' at 11,-1.7 center font ',10' boxed front
set label '9..12' at 12,-1.7 center font ',10' boxed front
set label '10..13' at 13,-1.7 center font ',10' boxed front
set label '11..14' at 14,-1.7 center font ',10' boxed front
set label '12..15' at 15,-1.7 center font ',10' boxed front
set label '0' at 0,-2.7 center font ',10' boxed front
set label '0..1' at 1,-2.7 center font ',10' boxed front
set label '0..2' at 2,-2.7 center font ',10' boxed front
set label '0..3' at 3,-2.7 center font ',10' boxed front
set label '0..4' at 4,-2.7 center font ',10' boxed front
set label '0..5' at 5,-2.7 center font ',10' boxed front
set label '0..6' at 6,-2.7 center font ',10' boxed front
set label '0..7' at 7,-2.7 center font ',10' boxed front
set label '1..8' at 8,-2.7 center font ',10' boxed front
set label '2..9' at 9,-2.7 center font ',10' boxed front
set label '3..10' at 10,-2.7 center font ',10' boxed front
set label '4..11' at 11,-2.7 center font ',10' boxed front
set label '5..12' at 12,-2.7 center font ',10' boxed front
set label '6..13' at 13,-2.7 center font ',10' boxed front
set label '7..14' at 14,-2.7 center font ',10' boxed front
set label '8..15' at 15,-2.7 center font ',10' boxed front
set label '0' at 0,-3.7 center font ',10' boxed front
set label '0..1' at 1,-3.7 center font ',10' boxed front
set label '0..2' at 2,-3.7 center font ',10' boxed front
set label '0..3' at 3,-3.7 center font ',10' boxed front
set label '0..4' at 4,-3.7 center font ',10' boxed front
set label '0..5' at 5,-3.7 center font ',10' boxed front
set label '0..6' at 6,-3.7 center font ',10' boxed front
set label '0..7' at 7,-3.7 center font ',10' boxed front
set label '0..8' at 8,-3.7 center font ',10' boxed front
set label '0..9' at 9,-3.7 center font ',10' boxed front
set label '0..10' at 10,-3.7 center font ',10' boxed front
set label '0..11' at 11,-3.7 center font ',10' boxed front
set label '0..12' at 12,-3.7 center font ',10' boxed front
set label '0..13' at 13,-3.7 center font ',10' boxed front
set label '0..14' at 14,-3.7 center font ',10' boxed front
set label '0..15' at 15,-3.7 center font ',10' boxed front
set style textbox opaque noborder margins 0.5,0.5
set ytics ('input' -0, 'offset 1' -1, 'offset 2' -2, 'offset 4' -3, 'offset 8' -4)
unset key
set grid noxtics noytics
set xrange [-0.8:15.8]
set yrange [-4.5:0.7]
set xtics 0,1,15
set arrow from 0,-0.08 to 0,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-0.08 to 2,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-0.08 to 2,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-0.08 to 4,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-0.08 to 4,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-0.08 to 6,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-0.08 to 6,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-0.08 to 8,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-0.08 to 8,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-0.08 to 10,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-0.08 to 10,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-0.08 to 12,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-0.08 to 12,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 12,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-0.08 to 14,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 13,-0.08 to 14,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 14,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-1.08 to 0,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-1.08 to 1,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-1.08 to 5,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-1.08 to 5,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-1.08 to 9,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-1.08 to 9,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-1.08 to 13,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-1.08 to 13,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 12,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 13,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-2.08 to 0,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-2.08 to 1,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-2.08 to 2,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-2.08 to 3,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-2.08 to 11,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-2.08 to 11,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 9,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 10,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 11,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-3.08 to 0,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-3.08 to 1,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-3.08 to 2,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-3.08 to 3,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-3.08 to 4,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-3.08 to 5,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-3.08 to 6,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-3.08 to 7,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 8,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 0,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 1,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 2,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 3,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 4,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 5,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 6,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#bbbbbb' back
set arrow from 7,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
plot 'hillis_steele.dat' index 0 using 1:2 with lines title '' noenhanced
unset output
