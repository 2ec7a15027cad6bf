# frozen_string_literal: true

require "open3"
require "time"

# RFC 9110 6.6.1: "An origin server with a clock ... MUST generate a Date header field in all
# 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses". curl against a real
# server: the app's answers over HTTP/1.1 and h2c, the server's own refusals, and an app's own
# Date left as it is.
RSpec.describe "The Date response header" do
  include PushServerHelpers

  let(:app) do
    lambda do |env|
      case env["PATH_INFO"]
      when "/dated" then [200, { "date" => "Sun, 06 Nov 1994 08:49:37 GMT" }, ["old news"]]
      when "/moved" then [301, { "location" => "/" }, []]
      else [200, { "content-type" => "text/plain" }, ["now"]]
      end
    end
  end

  # The response heads curl saw (-D -), each a Hash of lower-case name => [values].
  def heads(*args)
    out, err, status = Open3.capture3("curl", "-sS", "--max-time", "20", "-o", File::NULL, "-D", "-", *args)
    raise "curl #{args.join(' ')} failed: #{err}" unless status.success?

    out.split(/\r\n\r\n/).map do |head|
      head.lines.drop(1).map { |line| line.chomp.split(": ", 2) }
          .group_by { |name, _| name.downcase }.transform_values { |fields| fields.map(&:last) }
    end
  end

  def expect_now(dates)
    expect(dates.size).to eq(1), dates.inspect
    expect(dates.first).to match(/\A[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\z/)
    expect(Time.httpdate(dates.first)).to be_within(60).of(Time.now)
  end

  it "is on the app's answers over HTTP/1.1 and h2c, once, unless the app dated its own" do
    with_push_server(app, max_body_size: 16) do |port|
      base = "http://127.0.0.1:#{port}"
      expect_now(heads("--http1.1", "#{base}/").last["date"])
      expect_now(heads("--http2-prior-knowledge", "#{base}/").last["date"])
      expect_now(heads("--http1.1", "#{base}/moved").last["date"])
      expect(heads("--http1.1", "#{base}/dated").last["date"]).to eq(["Sun, 06 Nov 1994 08:49:37 GMT"])
      expect(heads("--http2-prior-knowledge", "#{base}/dated").last["date"]).to eq(["Sun, 06 Nov 1994 08:49:37 GMT"])
    end
  end

  it "is on the server's own refusals, and not on 100 Continue" do
    with_push_server(app, max_body_size: 16) do |port|
      too_large = heads("--http1.1", "-H", "content-length: 17", "-d", "x" * 17, "http://127.0.0.1:#{port}/")
      expect_now(too_large.last["date"])
      continued = heads("--http1.1", "-H", "expect: 100-continue", "-d", "x" * 8, "http://127.0.0.1:#{port}/")
      expect(continued.size).to eq(2), continued.inspect
      expect(continued.first["date"]).to be_nil
      expect_now(continued.last["date"])
    end
  end
end
