# frozen_string_literal: true

# bench/db's database-layer measure: no server, one thread, the same World lookup by id written
# five ways, each run in a loop for SECONDS after a warm-up of all five (twice SECONDS each),
# on whichever Ruby runs this
# file (JRuby with the JDBC driver, CRuby with the pg gem). Prints one JSON line per way:
# queries per second and the calling thread's CPU time per query (the JIT's and the collector's
# threads apart), which is what the database layer costs a request on each Ruby.
#   ruby layer.rb URL SECONDS      (DB_JDBC_JAR as for config.ru)
require "json"
require "sequel"

require ENV.fetch("DB_JDBC_JAR") if RUBY_ENGINE == "jruby" && ENV["DB_JDBC_JAR"]

url = ARGV.fetch(0)
seconds = Float(ARGV.fetch(1, "5"))
db = Sequel.connect(url, max_connections: 1, test: true)
world = db[:world].select(:id, :randomnumber)
by_id = world.where(id: :$id).prepare(:first, :layer_world_by_id)
loader = Sequel::Dataset::PlaceholderLiteralizer.loader(world) { |pl, ds| ds.where(id: pl.arg) }
SQL = "SELECT id, randomnumber FROM world WHERE id = $1"

# The driver alone, under Sequel's connection: the floor for this query on this Ruby.
raw = if RUBY_ENGINE == "jruby"
        lambda do |conn, id|
          @statement ||= conn.prepareStatement(SQL.sub("$1", "?"))
          @statement.setInt(1, id)
          rs = @statement.executeQuery
          rs.next
          row = { id: rs.getInt(1), randomnumber: rs.getInt(2) }
          rs.close
          row
        end
      else
        lambda do |conn, id|
          @prepared ||= conn.prepare("layer_raw", SQL)
          r = conn.exec_prepared("layer_raw", [id])
          row = { id: r.getvalue(0, 0).to_i, randomnumber: r.getvalue(0, 1).to_i }
          r.clear
          row
        end
      end

WAYS = {
  "dataset: where(id:).first" => ->(id) { world.where(id: id).first },
  "dataset, one checkout per request (synchronize)" => ->(id) { db.synchronize { world.where(id: id).first } },
  "prepared statement (prepare + call)" => ->(id) { by_id.call(id: id) },
  "placeholder literalizer (loader.first)" => ->(id) { loader.first(id) },
  "driver alone (prepared, under db.synchronize)" => ->(id) { db.synchronize { |conn| raw.call(conn, id) } }
}.freeze

if RUBY_ENGINE == "jruby"
  THREADS = java.lang.management.ManagementFactory.getThreadMXBean
  def cpu_now = THREADS.getCurrentThreadCpuTime / 1e9
else
  def cpu_now = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
end
def wall_now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def loop_for(seconds, query)
  n = 0
  cpu = cpu_now
  started = wall_now
  deadline = started + seconds
  while wall_now < deadline
    50.times { query.call(rand(1..10_000)) }
    n += 50
  end
  [n, wall_now - started, cpu_now - cpu]
end

WAYS.each do |name, query|
  row = query.call(1)
  raise "#{name}: wrong row #{row.inspect}" unless row && row[:id] == 1
end
# Warm-up: every way in turn, twice, so that the JIT has compiled what they share before any is timed.
2.times { WAYS.each_value { |query| loop_for(seconds, query) } }
WAYS.each do |name, query|
  n, wall, cpu = loop_for(seconds, query)
  puts JSON.generate("ruby" => RUBY_ENGINE, "way" => name, "qps" => (n / wall).round,
                     "wall_us" => (wall * 1e6 / n).round(1), "cpu_us" => (cpu * 1e6 / n).round(1))
  $stdout.flush
end
