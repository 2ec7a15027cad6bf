# frozen_string_literal: true

require "open3"
require "tmpdir"
require "uri"

# h2spec (summerwind/h2spec, script/bootstrap builds it into .toolchain/bin) in strict mode, all
# 146 cases, against an h2c listener (prior knowledge) and a TLS listener (ALPN h2), each after a
# warm-up so that the cases waiting for a response do not time out on a cold JVM. A case that
# fails is run once more on its own: on a busy machine a slow answer can look like a missing one,
# and a real protocol error fails both times.
#
# One case is expected to fail on h2c, and only there: 3.5/2 sends "INVALID CONNECTION
# PREFACE\r\n\r\n" and wants the connection closed in silence. A cleartext port speaks HTTP/1.1
# too, so bytes that are not the HTTP/2 preface are an HTTP/1.1 request, and one whose request
# line is not HTTP gets 400 before the close (RFC 9112 2.2). Over TLS, where ALPN said h2, the
# same bytes close the connection (RFC 9113 3.4).
RSpec.describe "h2spec (HTTP/2 conformance, strict)" do
  H2SPEC = File.expand_path("../../.toolchain/bin/h2spec", __dir__)
  TIMEOUT_S = 10

  before { skip "no #{H2SPEC}: run script/bootstrap (it builds h2spec with Go)" unless File.executable?(H2SPEC) }

  let(:app) do
    lambda do |env|
      env["rack.input"].read
      [200, { "content-type" => "text/plain" }, ["Hello from nettyrack\n"]]
    end
  end

  # [id, message] of every case that failed in h2spec's JUnit report (ids as h2spec numbers
  # them: the section, then the case's place in it).
  def failures(report)
    File.read(report).scan(%r{<testsuite [^>]*package="http2/([^"]+)"[^>]*>(.*?)</testsuite>}m).flat_map do |section, body|
      body.scan(%r{<testcase [^>]*classname="([^"]*)"[^>]*>(.*?)</testcase>}m).each_with_index.filter_map do |(name, inner), i|
        problem = inner[%r{<(?:failure|error)[^>]*>(.*?)</(?:failure|error)>}m, 1]
        ["#{section}/#{i + 1}", "#{name}: #{problem.strip.tr("\n", ' ')}"] if problem
      end
    end
  end

  def h2spec(port, tls, dir, *cases)
    report = File.join(dir, "h2spec-#{cases.empty? ? 'all' : cases.first.tr('/', '_')}.xml")
    out, status = Open3.capture2e("timeout", "600", H2SPEC, "-S", "-h", "127.0.0.1", "-p", port.to_s,
                                  "-o", TIMEOUT_S.to_s, "-j", report, *(tls ? ["-t", "-k"] : []), *cases)
    raise "h2spec did not finish: #{out[-2000..] || out}" unless File.exist?(report) && status.exitstatus != 124

    [out[/^\d+ tests, \d+ passed, \d+ skipped, \d+ failed$/], failures(report)]
  end

  # The failures that fail again when run on their own.
  def conformance(port, tls, warm_url)
    Dir.mktmpdir("nettyrack-h2spec") do |dir|
      warm, = Open3.capture2e("timeout", "120", "h2load", "-n", "3000", "-c", "4", warm_url)
      expect(warm).to include("3000 succeeded")
      summary, failed = h2spec(port, tls, dir)
      expect(summary).to start_with("146 tests")
      lasting = failed.select { |id, _| h2spec(port, tls, dir, "http2/#{id}").last.any? }
      [summary, lasting.map(&:first), failed]
    end
  end

  it "passes every case on h2c but the invalid preface, which HTTP/1.1 answers with 400" do
    with_app(app) do |port|
      summary, lasting, failed = conformance(port, false, "http://127.0.0.1:#{port}/")
      expect(lasting).to eq(["3.5/2"]), "#{summary}\n#{failed.map { |f| f.join(' ') }.join("\n")}"
    end
  end

  it "passes every case over TLS" do
    Dir.mktmpdir("nettyrack-h2spec-tls") do |dir|
      pem, key = TestCertificates.new(dir).server("server")
      server = Nettyrack::Server.new(app, binds: ["ssl://127.0.0.1:0?#{URI.encode_www_form(cert: pem, key: key)}"],
                                          threads: [2, 8], errors: StringIO.new)
      server.start
      summary, lasting, failed = conformance(server.port, true, "https://127.0.0.1:#{server.port}/")
      expect(lasting).to eq([]), "#{summary}\n#{failed.map { |f| f.join(' ') }.join("\n")}"
    ensure
      server&.stop
    end
  end
end
