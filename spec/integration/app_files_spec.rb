# frozen_string_literal: true

require_relative "../support/files_helper"
require "rack/files"
require "rack/sendfile"

# Files an app answers with go through the same file sender as --public: a to_path body
# (Rack::Files, a send_file-like body) and an x-sendfile header (Rack::Sendfile), with ranges
# and validators answered by the server, checked with curl.
RSpec.describe "files from the app" do
  around do |example|
    Dir.mktmpdir("nettyrack-app-files") do |dir|
      @dir = dir
      @data = Random.new(2).bytes(300_000)
      File.binwrite(File.join(dir, "report.bin"), @data)
      example.run
    end
  end

  # What Rails' send_file returns: a body with to_path (and each, for servers without files).
  class SendFileBody
    def initialize(path) = @path = path
    def to_path = @path
    def each = File.open(@path, "rb") { |f| while (chunk = f.read(16_384)) do yield chunk end }
  end

  let(:send_file_app) do
    lambda do |env|
      path = File.join(@dir, env["PATH_INFO"])
      [200, { "content-type" => "application/octet-stream", "content-disposition" => "attachment" }, SendFileBody.new(path)]
    end
  end

  it "answers Range, If-None-Match and HEAD for a to_path body, keeping the app's headers" do
    with_app(send_file_app) do |port|
      whole = curl(port, "/report.bin")
      part = curl(port, "/report.bin", "-r", "1000-1999")
      cached = curl(port, "/report.bin", "-H", "If-None-Match: #{whole.headers['etag']}")
      expect([whole.status, whole.body.b == @data, whole.headers["content-length"]]).to eq([200, true, "300000"])
      expect(whole.headers).to include("content-disposition" => "attachment", "accept-ranges" => "bytes")
      expect([part.status, part.body.b == @data[1000, 1000], part.headers["content-range"]])
        .to eq([206, true, "bytes 1000-1999/300000"])
      expect([cached.status, cached.body]).to eq([304, ""])
    end
  end

  it "sends Rack::Files' whole-file answers as files, and its own ranges as it made them" do
    with_app(Rack::Files.new(@dir)) do |port|
      whole = curl(port, "/report.bin")
      part = curl(port, "/report.bin", "-r", "0-99")
      expect([whole.status, whole.body.b == @data]).to eq([200, true])
      expect([part.status, part.body.b == @data[0, 100]]).to eq([206, true])
    end
  end

  describe "x-sendfile" do
    let(:app) do
      files = Rack::Files.new(@dir)
      sendfile = Rack::Sendfile.new(files)
      lambda do |env|
        status, headers, body = sendfile.call(env)
        [status, headers.merge("x-seen-type" => env["HTTP_X_SENDFILE_TYPE"].to_s), body]
      end
    end

    it "is announced in HTTP_X_SENDFILE_TYPE and honoured when sendfile is on" do
      with_app(app, files: file_options(nil, sendfile: true)) do |port|
        whole = curl(port, "/report.bin")
        part = curl(port, "/report.bin", "-r", "10-19")
        expect([whole.status, whole.headers["x-seen-type"], whole.headers["content-length"]]).to eq([200, "x-sendfile", "300000"])
        expect(whole.body.b == @data).to be(true)
        expect(whole.headers).not_to include("x-sendfile")
        expect([part.status, part.body.b]).to eq([206, @data[10, 10]])
        expect(curl(port, "/report.bin", "-I").headers["content-length"]).to eq("300000")
      end
    end

    it "is neither announced nor honoured when off" do
      with_app(app) do |port|
        whole = curl(port, "/report.bin")
        expect([whole.status, whole.headers["x-seen-type"], whole.body.b == @data]).to eq([200, "", true])
      end
    end

    it "answers 500 when the header names no file" do
      bad = ->(_env) { [200, { "x-sendfile" => File.join(@dir, "missing") }, []] }
      with_app(bad, files: file_options(nil, sendfile: true)) { |port| expect(curl(port, "/").status).to eq(500) }
    end
  end
end
