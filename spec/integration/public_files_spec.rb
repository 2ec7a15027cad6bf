# frozen_string_literal: true

require_relative "../support/files_helper"

# --public DIR over real sockets with curl (and Python's http.client): files under DIR are
# answered without the app, with ranges, validators, precompressed siblings and Cache-Control;
# paths that try to leave DIR are refused; everything else reaches the app.
RSpec.describe "public files (--public)" do
  let(:seen) { Queue.new }
  let(:app) { ->(env) { seen << env["PATH_INFO"]; [200, { "content-type" => "text/plain" }, ["app #{env['PATH_INFO']}"]] } }

  around do |example|
    Dir.mktmpdir("nettyrack-public") do |tmp|
      @tmp = tmp
      @public = File.join(tmp, "public")
      FileUtils.mkdir_p(File.join(@public, "assets"))
      FileUtils.mkdir_p(File.join(@public, "docs"))
      File.write(File.join(@public, "hello.txt"), "hello, static world\n")
      @js = Random.new(1).bytes(50_000)
      File.binwrite(File.join(@public, "assets", "app.js"), @js)
      File.binwrite(File.join(@public, "assets", "app.js.gz"), Zlib.gzip(@js))
      File.binwrite(File.join(@public, "assets", "app.js.br"), "not really brotli")
      File.write(File.join(@public, ".env"), "SECRET=1\n")
      File.write(File.join(tmp, "outside.txt"), "outside\n")
      File.symlink(File.join(tmp, "outside.txt"), File.join(@public, "escape.txt"))
      example.run
    end
  end

  def serve(**options, &block)
    with_app(app, files: file_options(@public, **options), &block)
  end

  it "answers GET and HEAD for a file without the app, with type, validators and length" do
    serve do |port|
      get = curl(port, "/hello.txt")
      head = curl(port, "/hello.txt", "-I")
      expect([get.status, get.body]).to eq([200, "hello, static world\n"])
      expect(get.headers).to include("content-type" => "text/plain; charset=utf-8", "content-length" => "20",
                                     "accept-ranges" => "bytes")
      expect(get.headers["etag"]).to match(/\A"[0-9a-f]+-14"\z/)
      expect(Time.httpdate(get.headers["last-modified"]).to_i).to eq(File.mtime(File.join(@public, "hello.txt")).to_i)
      expect([head.status, head.headers["content-length"]]).to eq([200, "20"])
      expect(seen).to be_empty
    end
  end

  it "serves a changed file as it was for --file-cache seconds, then as it is; with 0 at once" do
    path = File.join(@public, "hello.txt")
    with_app(app, files: file_options(@public), fileCacheMillis: 400) do |port|
      first_read = Deadline.now
      expect(curl(port, "/hello.txt").body).to eq("hello, static world\n")
      File.write(path, "changed\n")
      kept = curl(port, "/hello.txt")
      expect([kept.body, kept.headers["content-length"]]).to eq(["hello, static world\n", "20"])
      fresh = Deadline.wait_until(timeout: 10) do # the change shows once the 400 ms are over
        answer = curl(port, "/hello.txt")
        answer if answer.body == "changed\n"
      end
      expect(Deadline.now - first_read).to be >= 0.4 # kept for the cache time, counted from the file's first read
      expect(fresh.headers["content-length"]).to eq("8")
    end
    with_app(app, files: file_options(@public), fileCacheMillis: 0) do |port|
      expect(curl(port, "/hello.txt").body).to eq("changed\n")
      File.write(path, "again\n")
      expect(curl(port, "/hello.txt").body).to eq("again\n")
      File.delete(path)
      gone = curl(port, "/hello.txt")
      expect([gone.status, gone.body]).to eq([200, "app /hello.txt"])
    end
  end

  it "sends one range (206), refuses an unsatisfiable one (416), and ignores it when If-Range is stale" do
    serve do |port|
      part = curl(port, "/hello.txt", "-r", "7-12")
      suffix = curl(port, "/hello.txt", "-r", "-6")
      beyond = curl(port, "/hello.txt", "-r", "100-200")
      stale = curl(port, "/hello.txt", "-r", "0-4", "-H", 'If-Range: "stale"')
      expect([part.status, part.body, part.headers["content-range"]]).to eq([206, "static", "bytes 7-12/20"])
      expect([suffix.status, suffix.body]).to eq([206, "world\n"])
      expect([beyond.status, beyond.headers["content-range"]]).to eq([416, "bytes */20"])
      expect([stale.status, stale.body]).to eq([200, "hello, static world\n"])
    end
  end

  it "answers If-None-Match and If-Modified-Since with 304" do
    serve do |port|
      first = curl(port, "/hello.txt")
      by_etag = curl(port, "/hello.txt", "-H", "If-None-Match: #{first.headers['etag']}")
      by_date = curl(port, "/hello.txt", "-H", "If-Modified-Since: #{first.headers['last-modified']}")
      changed = curl(port, "/hello.txt", "-H", 'If-None-Match: "other"')
      expect([by_etag.status, by_etag.body, by_etag.headers["etag"]]).to eq([304, "", first.headers["etag"]])
      expect(by_date.status).to eq(304)
      expect(changed.status).to eq(200)
    end
  end

  it "sends a precompressed sibling the client accepts, with Vary, and Cache-Control by prefix" do
    serve(cache: { "/assets/" => "public, max-age=31536000, immutable" }) do |port|
      gzip = curl(port, "/assets/app.js", "--compressed", "-H", "Accept-Encoding: gzip")
      br = curl(port, "/assets/app.js", "-H", "Accept-Encoding: br, gzip")
      plain = curl(port, "/assets/app.js")
      other = curl(port, "/hello.txt")
      expect([gzip.status, gzip.headers["content-encoding"], gzip.headers["vary"]]).to eq([200, "gzip", "accept-encoding"])
      expect(gzip.body.b).to eq(@js) # curl --compressed decoded it
      expect([br.headers["content-encoding"], br.body]).to eq(["br", "not really brotli"])
      expect([plain.headers["content-encoding"], plain.headers["vary"], plain.body.b]).to eq([nil, "accept-encoding", @js])
      expect(plain.headers["content-type"]).to eq("text/javascript; charset=utf-8")
      expect(plain.headers["cache-control"]).to eq("public, max-age=31536000, immutable")
      expect(other.headers).not_to include("cache-control")
      expect(gzip.headers["etag"]).not_to eq(plain.headers["etag"])
    end
  end

  it "refuses paths that would leave the directory, and a symlink out of it" do
    serve do |port|
      statuses = ["/../outside.txt", "/assets/../../outside.txt", "/%2e%2e/outside.txt", "/..%2foutside.txt",
                  "/..%5coutside.txt", "/hello.txt%00.png"].to_h { |path| [path, curl(port, path, "--path-as-is").status] }
      escape = curl(port, "/escape.txt")
      expect(statuses.values).to all(eq(400)), statuses.inspect
      expect([escape.status, escape.body]).to eq([404, "Not Found\n"])
      expect(seen).to be_empty
    end
  end

  it "leaves dotfiles, directories, missing files and other methods to the app; serves dotfiles when asked" do
    serve do |port|
      answers = ["/.env", "/docs", "/docs/", "/missing.txt"].map { |path| curl(port, path).body }
      post = curl(port, "/hello.txt", "-X", "POST", "-d", "x")
      expect(answers).to eq(["app /.env", "app /docs", "app /docs/", "app /missing.txt"])
      expect(post.body).to eq("app /hello.txt")
    end
    serve(dotfiles: true) { |port| expect(curl(port, "/.env").body).to eq("SECRET=1\n") }
  end

  it "answers Python's http.client too, keeping pipelined order on one connection" do
    serve do |port|
      script = <<~PY
        import http.client, json
        c = http.client.HTTPConnection("127.0.0.1", #{port}, timeout=10)
        out = []
        for path, headers in [("/hello.txt", {}), ("/nope", {}), ("/hello.txt", {"Range": "bytes=0-4"})]:
            c.request("GET", path, headers=headers)
            r = c.getresponse()
            out.append([r.status, r.read().decode()])
        print(json.dumps(out))
      PY
      out, err, = Open3.capture3(PythonClients::PYTHON, "-c", script)
      expect(JSON.parse(out)).to eq([[200, "hello, static world\n"], [200, "app /nope"], [206, "hello"]]), err
    end
  end
end
