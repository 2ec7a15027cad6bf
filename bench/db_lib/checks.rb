# frozen_string_literal: true

require "json"
require "net/http"

# Before bench/db loads a server, it checks that the server's answers are right, as the
# benchmark kind's verifier would: a JSON World row, ?queries= clamped to 1..500, the fortunes
# sorted and escaped (with the row added at request time), and updates written to the database.
# Raises with what was wrong; the bench then stops.
module DbChecks
  module_function

  def verify(port, pg)
    http = Net::HTTP.start("127.0.0.1", port, read_timeout: 30)
    row = json(http, "/db")
    world_row!(row, "/db")
    { "/queries?queries=3" => 3, "/queries?queries=0" => 1, "/queries?queries=abc" => 1, "/queries?queries=501" => 500,
      "/queries" => 1 }.each do |path, size|
      rows = json(http, path)
      raise "#{path}: #{size} rows expected, got #{rows.size}" unless rows.is_a?(Array) && rows.size == size

      rows.each { |r| world_row!(r, path) }
    end
    fortunes!(get(http, "/fortunes"))
    updates!(http, pg)
  ensure
    http&.finish
  end

  def get(http, path)
    response = http.get(path)
    raise "#{path}: HTTP #{response.code}: #{response.body.to_s[0, 200]}" unless response.code == "200"

    response.body.force_encoding(Encoding::UTF_8)
  end

  def json(http, path) = JSON.parse(get(http, path))

  def world_row!(row, path)
    ok = row.is_a?(Hash) && row.keys.sort == %w[id randomNumber] && (1..10_000).cover?(row["id"]) &&
         (1..10_000).cover?(row["randomNumber"])
    raise "#{path}: not a World row: #{row.inspect}" unless ok
  end

  def fortunes!(html)
    cells = html.scan(%r{<tr><td>(\d+)</td><td>(.*?)</td></tr>})
    messages = cells.map(&:last)
    problems = []
    problems << "#{cells.size} rows, 13 expected" unless cells.size == 13
    problems << "not escaped" unless html.include?("&lt;script&gt;alert(&quot;This should not be displayed")
    problems << "no row added at request time" unless cells.include?(["0", "Additional fortune added at request time."])
    problems << "non-ASCII text mangled" unless messages.include?("フレームワークのベンチマーク")
    problems << "not sorted by message" unless messages == messages.sort_by { |m| m.gsub("&lt;", "<").gsub("&quot;", '"').gsub("&#39;", "'") }
    raise "/fortunes: #{problems.join(', ')}" unless problems.empty?
  end

  def updates!(http, pg)
    rows = json(http, "/updates?queries=5")
    raise "/updates: 5 rows expected, got #{rows.inspect}" unless rows.is_a?(Array) && rows.size == 5

    rows.each { |r| world_row!(r, "/updates") }
    # A row drawn twice holds the last number written for it.
    expected = rows.to_h { |r| [r["id"], r["randomNumber"]] }
    stored = pg.psql("SELECT id, randomnumber FROM world WHERE id IN (#{expected.keys.join(',')})")
               .lines.to_h { |line| line.strip.split("|").map(&:to_i) }
    raise "/updates: answered #{expected}, the database holds #{stored}" unless stored == expected
  end
end
