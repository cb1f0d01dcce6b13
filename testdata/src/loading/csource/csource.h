hlfakeStatus_t csourceNewPlan(hlfakePlan_t *plan, hlfakeMode_t mode);
hlfakeStatus_t csourceRun(hlfakePlan_t plan, float *data, int n);
