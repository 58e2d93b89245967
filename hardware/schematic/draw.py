# Draws tenace-bridge.svg from tenace-bridge.net (run after changing the netlist): python3 draw.py
# A net-label schematic: each pin gets a stub and its net's name; test/hardware/schematic.test.ts checks the result.
import html
import os

HERE = os.path.dirname(os.path.abspath(__file__))
net_of = {}
parts = {}
for line in open(os.path.join(HERE, 'tenace-bridge.net')):
    line=line.split('#')[0].strip()
    if not line: continue
    f=line.split()
    if f[0]=='PART': parts[f[1]]=(f[2],' '.join(f[3:]))
    if f[0]=='NET':
        for p in f[2:]: net_of[p]=f[1]
def pins_of(ref):
    return [p for p in net_of if p.split('.',1)[0]==ref]
out=[]
W,H=1500,1180
out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">')
out.append(f'<rect width="{W}" height="{H}" fill="#ffffff"/>')
out.append('<text x="20" y="30" font-size="20" font-weight="bold">tenace firmware bridge: Pico + 74LVC125A + 4 RC522 readers (tenace-bridge.net)</text>')
out.append('<text x="20" y="52" fill="#333">Connections are by net name: every pin stub carries its net label, and pins with the same label are joined. Cable: Jn pin k to JnR pin k (straight Cat5e, T568B).</text>')
def box(ref, x, y, w, left, right, title=None, top=None):
    # left/right: list of pin ids (full "REF.PIN") in order
    n=max(len(left),len(right))
    h=28+n*22
    val,what=parts[ref]
    out.append(f'<g data-part="{ref}">')
    out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#f4f4f4" stroke="#000" stroke-width="1.5"/>')
    out.append(f'<text x="{x+w/2}" y="{y+16}" text-anchor="middle" font-weight="bold">{html.escape(ref)} {html.escape(val)}</text>')
    for i,p in enumerate(left):
        py=y+38+i*22
        pin=p.split('.',1)[1]
        net=net_of[p]
        out.append(f'<g data-pin="{p}" data-net="{net}"><line x1="{x-30}" y1="{py}" x2="{x}" y2="{py}" stroke="#000"/>'
                   f'<text x="{x+4}" y="{py+4}" fill="#555">{html.escape(pin)}</text>'
                   f'<text x="{x-34}" y="{py+4}" text-anchor="end" fill="#0645ad" font-weight="bold">{net}</text></g>')
    for i,p in enumerate(right):
        py=y+38+i*22
        pin=p.split('.',1)[1]
        net=net_of[p]
        out.append(f'<g data-pin="{p}" data-net="{net}"><line x1="{x+w}" y1="{py}" x2="{x+w+30}" y2="{py}" stroke="#000"/>'
                   f'<text x="{x+w-4}" y="{py+4}" text-anchor="end" fill="#555">{html.escape(pin)}</text>'
                   f'<text x="{x+w+34}" y="{py+4}" fill="#0645ad" font-weight="bold">{net}</text></g>')
    out.append(f'<text x="{x+w/2}" y="{y+h+16}" text-anchor="middle" fill="#333" font-size="11">{html.escape(what)}</text>')
    out.append('</g>')
    return h
def order(ref, keys):
    ps=pins_of(ref)
    res=[]
    for k in keys:
        m=[p for p in ps if p.split('.',1)[1]==k or p.split('.',1)[1].startswith(k+'/')]
        assert len(m)==1,(ref,k,m)
        res.append(m[0])
    return res
# hub board frame
out.append('<rect x="10" y="70" width="1000" height="1100" fill="none" stroke="#888" stroke-dasharray="6 4"/>')
out.append('<text x="20" y="90" fill="#666">hub board (stripboard), under the table centre</text>')
box('U0', 90, 110, 170, [], order('U0',['4','5','6','7','20','21','22','24','25','26','27','29','36','38']))
out.append('<text x="175" y="500" text-anchor="middle" fill="#333">USB micro-B to the Raspberry Pi (power and serial)</text>')
box('U1', 520, 110, 140, order('U1',['1','2','4','5','9','10','12','13']), order('U1',['3','6','8','11','14','7']))
y=420
for r in ['R1','R2','R3','R4','R5','R6','R7','C1','TP1']:
    ps=order(r,['1','2']) if r!='TP1' else order(r,['1'])
    box(r, 520, y, 70, [ps[0]], ps[1:])
    y+=80
y=110
for j in ['J1','J2','J3','J4']:
    box(j, 850, y, 120, order(j,[str(k) for k in range(1,9)]), [])
    y+=260
# reader ends
out.append('<rect x="1030" y="70" width="460" height="1100" fill="none" stroke="#888" stroke-dasharray="6 4"/>')
out.append('<text x="1040" y="90" fill="#666">reader ends: one under each play spot</text>')
y=110
for n in range(4):
    box(f'J{n+1}R', 1075, y, 120, order(f'J{n+1}R',[str(k) for k in range(1,9)]), [])
    box(f'M{n}', 1330, y, 100, order(f'M{n}',['SDA','SCK','MOSI','MISO','GND','RST','3.3V']), [])
    out.append(f'<text x="1230" y="{y+220}" fill="#333" font-size="11">C{n}1 10u, C{n}2 100n: {net_of[f"C{n}1.1"]} to {net_of[f"C{n}1.2"]}</text>')
    y+=260
out.append('</svg>')
open(os.path.join(HERE, 'tenace-bridge.svg'), 'w').write('\n'.join(out)+'\n')
