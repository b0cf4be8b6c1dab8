"""Admission: the per-mention rules that decide which mentions of an extraction record become nodes and which
relations become edges, each refusal kept with its reason (between extract/ and graph/)."""
