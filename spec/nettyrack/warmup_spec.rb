# frozen_string_literal: true

require "tmpdir"
require "nettyrack/warmup"

RSpec.describe Nettyrack::Warmup do
  def parse(text) = described_class.parse(text, "warmup.txt").map { |r| [r.method, r.target, r.headers, r.body] }

  it "reads one request a line, a body after the target, headers on indented lines, skipping comments" do
    text = <<~WARMUP
      # the pages users open first
      GET /
      GET /products/1?color=red

      POST /search q=shoes and socks
        content-type: application/x-www-form-urlencoded
        x-trace: warm
    WARMUP
    expect(parse(text)).to eq([["GET", "/", [], ""], ["GET", "/products/1?color=red", [], ""],
                               ["POST", "/search", [%w[content-type application/x-www-form-urlencoded], %w[x-trace warm]],
                                "q=shoes and socks"]])
  end

  it "names the file and line of what is not a request or a header" do
    expect { parse("GET /\nget /lower\n") }
      .to raise_error(Nettyrack::ConfigError, 'warmup.txt:2: not a request: "get /lower" (write METHOD /path [body], such as GET /)')
    expect { parse("GET http://example.com/\n") }.to raise_error(Nettyrack::ConfigError, /warmup.txt:1: not a request/)
    expect { parse("  accept: text/html\nGET /\n") }
      .to raise_error(Nettyrack::ConfigError, "warmup.txt:1: a header line before any request")
    expect { parse("GET /\n  no colon here\n") }
      .to raise_error(Nettyrack::ConfigError, 'warmup.txt:2: not a header: "no colon here" (write Name: value)')
    expect { parse("# nothing\n\n") }
      .to raise_error(Nettyrack::ConfigError, "warmup.txt: no requests in it (one a line, such as GET /)")
  end

  it "says in one line that a file cannot be read" do
    Dir.mktmpdir do |dir|
      expect { described_class.read(File.join(dir, "none.txt")) }
        .to raise_error(Nettyrack::ConfigError, "cannot read warm-up file #{dir}/none.txt: No such file or directory")
    end
  end

  it "builds the same requests from the config file's block" do
    builder = described_class::Builder.new
    builder.instance_eval do
      get "/"
      get "/api/items", "accept" => "application/json"
      post "/search", "q=shoes"
      request :patch, "/items/1", body: '{"name":"x"}'
    end
    expect(builder.requests.map { |r| [r.method, r.target, r.headers, r.body] })
      .to eq([["GET", "/", [], ""], ["GET", "/api/items", [%w[accept application/json]], ""],
              ["POST", "/search", [], "q=shoes"], ["PATCH", "/items/1", [], '{"name":"x"}']])
    expect { builder.get("nowhere") }.to raise_error(Nettyrack::ConfigError, /warmup: not a request: "GET nowhere"/)
  end

  it "gives a body a content-type unless one was named: JSON for { and [, a form otherwise" do
    request = ->(body, headers = []) { described_class::Request.new("POST", "/", headers, body) }
    expect(described_class.with_content_type(request.call('{"a":1}'))).to eq([%w[content-type application/json]])
    expect(described_class.with_content_type(request.call("a=1"))).to eq([%w[content-type application/x-www-form-urlencoded]])
    expect(described_class.with_content_type(request.call("a=1", [%w[Content-Type text/plain]]))).to eq([%w[Content-Type text/plain]])
    expect(described_class.with_content_type(request.call(""))).to eq([])
  end

  it "names the host as a client would: the first TCP listener, a wildcard as localhost" do
    expect(described_class.host(["http://0.0.0.0:9292", "unix:///tmp/a.sock"])).to eq("localhost:9292")
    expect(described_class.host(["unix:///tmp/a.sock", "https://127.0.0.1:9443"])).to eq("127.0.0.1:9443")
    expect(described_class.host(["http://[::]:8080"])).to eq("localhost:8080")
    expect(described_class.host(["unix:///tmp/a.sock"])).to eq("localhost")
  end

  it "reads back the recent GET requests a hot restart handed over, and nothing on a plain start" do
    path = described_class.write_recent(["/", "/products/7?color=red", "/"])
    expect(File.stat(path).mode & 0o777).to eq(0o600)
    expect(described_class.recent(described_class::RECENT => path).map(&:to_s)).to eq(["GET /", "GET /products/7?color=red", "GET /"])
    File.write(path, "")
    expect(described_class.recent(described_class::RECENT => path)).to equal(described_class::DEFAULT)
    expect(described_class.recent(described_class::RECENT => "#{path}.gone")).to equal(described_class::DEFAULT)
    expect(described_class.recent({})).to be_nil
  ensure
    File.delete(path) if path && File.exist?(path)
  end

  it "makes the Java plan the server runs" do
    plan = described_class.plan(described_class::DEFAULT, connections: 4, host: "localhost:9292", seconds: 1.5, count: 0)
    expect([plan.requests.size, plan.connections, plan.host, plan.max_millis, plan.max_requests])
      .to eq([1, 4, "localhost:9292", 1500, 0])
    expect(plan.requests.first.describe).to eq("GET /")
  end
end
