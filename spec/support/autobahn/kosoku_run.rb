# frozen_string_literal: true

require_relative "../deadline"
require_relative "../python_clients"

# The Autobahn|Testsuite cases run by kosoku's fuzzing client (fuzzingclient.py, beside this
# file) against a WebSocket echo server, in chunks: one kosoku process per chunk, each with its
# own time limit, so a hung case costs its chunk, not the run; chunks not started within the
# budget are reported as unfinished.
#
#   run = KosokuRun.new("ws://127.0.0.1:#{port}/").call
#   run.failures   # => results that Autobahn does not count as passing
#   run.summary    # => "Autobahn: 301 cases (297 OK, 4 NON-STRICT), 0 failed in 95.3 s (9.x: 61.0 s)"
#
# A case passes as Autobahn counts it: behavior OK, NON-STRICT or INFORMATIONAL, and closing
# behavior OK or INFORMATIONAL (UNIMPLEMENTED, FAILED, ERROR, UNCLEAN, WRONG CODE... fail).
class KosokuRun
  # Groups 1-7, 9 (split: its 16 MB cases are the slow ones) and 10.
  CHUNKS = (%w[1 2 3 4 5 6 7] + (1..8).map { |n| "9.#{n}" } + %w[10]).map { |group| "#{group}.*" }.freeze
  PASSING_BEHAVIOR = %w[OK NON-STRICT INFORMATIONAL].freeze
  PASSING_CLOSE = %w[OK INFORMATIONAL].freeze

  attr_reader :results, :timings, :unfinished

  def initialize(url, chunks: CHUNKS, chunk_timeout: 300, budget: 1200)
    @url = url
    @chunks = chunks
    @chunk_timeout = chunk_timeout
    @budget = budget
    @results = []
    @timings = {}
    @unfinished = []
  end

  def call
    started = Deadline.now
    @chunks.each do |chunk|
      next @unfinished << "#{chunk} (not started: the #{@budget} s budget was spent)" if Deadline.now - started > @budget

      run_chunk(chunk)
    end
    @seconds = Deadline.now - started
    self
  end

  def failures
    @results.reject { |result| self.class.passing?(result) }
  end

  def summary
    counts = @results.group_by { |r| r["behavior"] }.sort.map { |label, rows| "#{rows.size} #{label}" }
    nine = @timings.select { |chunk, _| chunk.start_with?("9.") }.values.sum
    line = "Autobahn: #{@results.size} cases (#{counts.join(', ')}), #{failures.size} failed"
    line += ", #{@unfinished.size} chunks unfinished" if @unfinished.any?
    line += " in #{@seconds.round(1)} s (9.x: #{nine.round(1)} s)"
    line += "; failing: #{failures.map { |r| r['id'] }.join(' ')}" if failures.any?
    line
  end

  def self.passing?(result)
    PASSING_BEHAVIOR.include?(result["behavior"]) && PASSING_CLOSE.include?(result["behavior_close"])
  end

  # One line: the verdicts, kosoku's explanation, and what it expected against what it saw.
  def self.describe(result)
    "#{result['id']} #{result['behavior']}/#{result['behavior_close']}: #{result['result']} | " \
      "#{result['result_close']} | close code #{result['remote_close_code'].inspect} " \
      "#{result['remote_close_reason'].inspect}, expected close #{result['expected_close'].inspect}, " \
      "clean: #{result['was_clean']} #{result['was_not_clean_reason']} | received " \
      "#{result['received'].inspect} | expected #{result['expected'].inspect} | #{result['description']}"
  end

  private

  def run_chunk(chunk)
    report = PythonClients.run("autobahn/fuzzingclient.py", timeout: @chunk_timeout, args: [@url, chunk])
    @results.concat(report["results"])
    @timings[chunk] = report["seconds"]
  rescue RuntimeError => e
    @unfinished << "#{chunk} (#{e.message.lines.first.strip})"
  end
end
