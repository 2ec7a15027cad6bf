# frozen_string_literal: true

# bench/db's app: the four classic database tests of the framework-benchmark kind, on Sequel,
# the same code on every server: Sequel's jdbc/postgresql adapter with the PostgreSQL JDBC driver
# on JRuby, its postgres adapter with the pg gem on CRuby.
#   GET /db                  one random World row as JSON: {"id":..,"randomNumber":..}
#   GET /queries?queries=N   N random rows, one query each, as a JSON array (N clamped to 1..500)
#   GET /fortunes            every Fortune plus one added at request time, sorted by message,
#                            as an HTML table with every message escaped
#   GET /updates?queries=N   N random rows read one by one, each given a new random number and
#                            written back with one UPDATE each, as a JSON array
#   GET /                    "ok" (the bench waits for it at boot)
#
# Environment: DB_URL (postgres://... or jdbc:postgresql://...), DB_POOL (Sequel's
# max_connections, as many as the server runs threads), DB_QUERY (how World queries are
# built: dataset, prepared or literalizer, see World), DB_HOLD=1 (one pool checkout per
# request: HoldConnection below), DB_JDBC_JAR (the driver's jar, for JRuby), DB_JDBC_OPTIONS
# (driver settings added to a jdbc: URL, e.g. preferQueryMode=simple).
require "cgi"
require "json"
require "sequel"

require ENV.fetch("DB_JDBC_JAR") if RUBY_ENGINE == "jruby" && ENV["DB_JDBC_JAR"]

# The queries; one object per process, its connection pool shared by every thread.
class World
  ROWS = 10_000

  # query: "dataset" (a Sequel dataset built per query), "prepared" (Sequel's prepared
  # statements) or "literalizer" (Sequel's placeholder literalizer: the SQL's pieces built
  # once, the id spliced in per query).
  def initialize(db, query:)
    @db = db
    @world = db[:world].select(:id, :randomnumber)
    @fortunes = db[:fortune].select(:id, :message)
    @query = query
    case query
    when "dataset" then nil
    when "prepared"
      @by_id = @world.where(id: :$id).prepare(:first, :world_by_id)
      @update = db[:world].where(id: :$id).prepare(:update, :world_update, randomnumber: :$randomnumber)
    when "literalizer"
      @by_id = Sequel::Dataset::PlaceholderLiteralizer.loader(@world) { |pl, ds| ds.where(id: pl.arg) }
      @update_sql = Sequel::Dataset::PlaceholderLiteralizer.loader(db[:world]) do |pl, ds|
        ds.where(id: pl.arg).with_sql(:update_sql, randomnumber: pl.arg)
      end
    else raise ArgumentError, "DB_QUERY must be dataset, prepared or literalizer, not #{query.inspect}"
    end
  end

  def random_id = rand(1..ROWS)

  def find(id)
    row = case @query
          when "dataset" then @world.where(id: id).first
          when "prepared" then @by_id.call(id: id)
          else @by_id.first(id)
          end
    { id: row[:id], randomNumber: row[:randomnumber] }
  end

  def update(id, number)
    case @query
    when "dataset" then @db[:world].where(id: id).update(randomnumber: number)
    when "prepared" then @update.call(id: id, randomnumber: number)
    else @db.execute_dui(@update_sql.sql(id, number))
    end
  end

  def fortunes = @fortunes.all
end

# DB_HOLD=1: every query of a request on one connection, checked out of the pool once per
# request instead of once per query (Sequel's pool takes its mutex three times per checkout,
# and on JRuby its non-local return costs a Java exception each time).
class HoldConnection
  def initialize(app, db)
    @app = app
    @db = db
  end

  def call(env) = @db.synchronize { @app.call(env) }
end

# The Rack app.
class WorldApp
  JSON_HEADERS = { "content-type" => "application/json" }.freeze
  HTML_HEADERS = { "content-type" => "text/html; charset=utf-8" }.freeze
  TEXT_HEADERS = { "content-type" => "text/plain" }.freeze
  ADDED = "Additional fortune added at request time."

  def initialize(world)
    @world = world
  end

  def call(env)
    case env["PATH_INFO"]
    when "/db" then json(@world.find(@world.random_id))
    when "/queries" then json(Array.new(count(env)) { @world.find(@world.random_id) })
    when "/fortunes" then [200, HTML_HEADERS.dup, [fortunes_html]]
    when "/updates" then json(updates(count(env)))
    when "/" then [200, TEXT_HEADERS.dup, ["ok"]]
    else [404, TEXT_HEADERS.dup, ["not found"]]
    end
  end

  private

  def json(value) = [200, JSON_HEADERS.dup, [JSON.generate(value)]]

  # ?queries=N, 1 when missing or not a number, at most 500.
  def count(env)
    n = env["QUERY_STRING"].to_s[/(?:\A|&)queries=(\d+)/, 1].to_i
    n.clamp(1, 500)
  end

  def updates(n)
    ids = Array.new(n) { @world.random_id }
    rows = ids.map { |id| @world.find(id) }
    rows.each { |row| row[:randomNumber] = @world.random_id }
    # In id order, so that two requests updating the same rows never wait on each other in a cycle.
    # (A row drawn twice keeps the number it was given last.)
    rows.each_with_index.sort_by { |row, i| [row[:id], i] }.each { |row, _| @world.update(row[:id], row[:randomNumber]) }
    rows
  end

  def fortunes_html
    rows = @world.fortunes.map { |row| [row[:id], row[:message]] }
    rows << [0, ADDED]
    rows.sort_by! { |_, message| message }
    html = +"<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>"
    rows.each { |id, message| html << "<tr><td>#{id}</td><td>#{CGI.escapeHTML(message)}</td></tr>" }
    html << "</table></body></html>"
  end
end

url = ENV.fetch("DB_URL")
url += "#{url.include?('?') ? '&' : '?'}#{ENV['DB_JDBC_OPTIONS']}" if url.start_with?("jdbc:") && ENV["DB_JDBC_OPTIONS"]
db = Sequel.connect(url, max_connections: Integer(ENV.fetch("DB_POOL", "5")), test: false)
use HoldConnection, db if ENV["DB_HOLD"] == "1"
run WorldApp.new(World.new(db, query: ENV.fetch("DB_QUERY", "dataset")))
