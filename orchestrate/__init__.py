"""A run of the pipeline: check the inputs and the output folder, extract (in this process, in workers or on
a Dask cluster), build the graph and write the output folder in one transaction."""
