# frozen_string_literal: true

require "rack"
require "rack/lint"
require "nettyrack/app_loader"

# RFC 6455 conformance: the Autobahn|Testsuite cases of groups 1-7 (framing, pings, reserved
# bits, opcodes, fragmentation, UTF-8, closing), 9 (limits and performance, messages up to
# 16 MB) and 10 (auto-fragmentation), run by kosoku (spec/support/autobahn/kosoku_run.rb) against
# spec/support/autobahn/echo.ru on an in-process Nettyrack::Server.
# The default run takes 20-35 s on 2 cores (9.x: 8-20 s of it).
# NETTYRACK_AUTOBAHN_CASES="5.*,9.1.1" runs those instead: ids or globs, comma-separated, each
# one kosoku run of at most 300 s. The permessage-deflate groups, left out by default, are slow
# (12.1.* alone takes about 60 s): give them per subgroup, "12.1.*,12.2.*,...,13.7.*".
RSpec.describe "RFC 6455 conformance (Autobahn|Testsuite through kosoku)" do
  let(:echo) { Rack::Lint.new(Nettyrack::AppLoader.load(File.expand_path("../support/autobahn/echo.ru", __dir__))) }
  let(:chunks) { ENV["NETTYRACK_AUTOBAHN_CASES"]&.split(",")&.map(&:strip) || KosokuRun::CHUNKS }

  it "passes every case of groups 1-7, 9 and 10" do
    # 9.x echoes 16 MB messages: both the incoming limit and the outgoing queue must allow them.
    run, log = with_push_server(echo, max_message_size: "32m", max_push_queue: "64m") do |port, errors|
      [KosokuRun.new("ws://127.0.0.1:#{port}/", chunks: chunks).call, errors]
    end
    RSpec.configuration.reporter.message(run.summary)

    expect(run.unfinished).to be_empty, "chunks that did not finish: #{run.unfinished.join('; ')}\n" \
                                        "server errors: #{ClientProcess.tail(log.string)}"
    expect(run.failures).to be_empty, "#{run.summary}\n#{run.failures.map { |r| KosokuRun.describe(r) }.join("\n")}"
    expect(run.results).not_to be_empty
  end
end
