#include <hlfakelib.h>
#include "csource.h"

hlfakeStatus_t csourceNewPlan(hlfakePlan_t *plan, hlfakeMode_t mode) {
	hlfakeOptions_t opts;
	opts.mode = mode;
	return hlfakeCreatePlan(plan, &opts);
}

hlfakeStatus_t csourceRun(hlfakePlan_t plan, float *data, int n) {
	return hlfakeExecute(plan, data, n);
}
