/** Values the benchmark parent and its server child agree on. */
export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
