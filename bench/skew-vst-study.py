# Variance-stabilised bootstrap (Tibshirani 1988) on lognormal(0,1) differences at n = 10: B1 = 200 outer x B2 = 50 inner resamples estimate se(theta*), log se fitted linearly in theta*, g = integral of 1/se, percentile interval of g(theta*) - g(theta), back-transformed with B3 = 999.
# Run: python3 bench/skew-vst-study.py 300 4
import numpy as np, sys
rng=np.random.default_rng(int(sys.argv[2])); R=int(sys.argv[1]); n=10; a=0.025; truth=0.1
B1=200;B2=50;B3=999
cov=0;wid=0;covs=0
for r in range(R):
    x=np.exp(rng.standard_normal(n))-np.exp(0.5)+0.1; th=x.mean()
    z=x[rng.integers(0,n,(B1,n))]; m1=z.mean(1)
    zz=np.take_along_axis(z[:,None,:].repeat(B2,1), rng.integers(0,n,(B1,B2,n)),2)
    s1=zz.mean(2).std(1,ddof=1)
    # smooth log s against theta*: quadratic fit
    ok=s1>0; c=np.polyfit(m1[ok],np.log(s1[ok]),1)
    grid=np.linspace(min(m1.min(),th)-3*x.std(), max(m1.max(),th)+3*x.std(), 2001)
    s=np.exp(np.polyval(c,grid)); g=np.concatenate([[0],np.cumsum((1/s[1:]+1/s[:-1])/2*np.diff(grid))])
    G=lambda v: np.interp(v,grid,g); Ginv=lambda u: np.interp(u,g,grid)
    m3=x[rng.integers(0,n,(B3,n))].mean(1)
    d=G(m3)-G(th); ql,qh=np.quantile(d,[a,1-a])
    lo,hi=Ginv(G(th)-qh),Ginv(G(th)-ql)
    cov+=lo<=truth<=hi; wid+=hi-lo
c=cov/R; print('vst', round(c,3),'±',round(np.sqrt(c*(1-c)/R),3),'width',round(wid/R,2))
