"""Singh et al. 2011: distributed hierarchical MCMC cross-document coreference (data, numba kernels,
Dask inference, tuning, baselines) and its Figs. 5-7 and Table 2."""
