# A CPU-bound Rack app for bench/run's thread-scaling rows: each request computes fib(N) in
# plain Ruby (N = BENCH_FIB, default 24: about 1 ms on JRuby 10 once JIT-compiled, ~4 ms on
# CRuby 3.1). Throughput can only rise with worker threads where Ruby threads run in parallel
# (JRuby); on a 2-core machine ~2x over one thread is the ceiling.
FIB_N = Integer(ENV.fetch("BENCH_FIB", "24"))

def bench_fib(n)
  n < 2 ? n : bench_fib(n - 1) + bench_fib(n - 2)
end

run lambda { |env|
  [200, {"content-type" => "text/plain"}, ["fib(#{FIB_N}) = #{bench_fib(FIB_N)}\n"]]
}
