"""Infrastructure as code sized by the cost engine: `infrastructure` chooses the design, sizes a provisioned
table's capacities and writes the code (`modeling.interop.infrastructure`); `monitoring` decides its launch
alarms and dashboard. The edges call `studio.interop`."""
