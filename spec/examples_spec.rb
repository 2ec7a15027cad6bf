# frozen_string_literal: true

require "open3"

# Every app under examples/ served by bin/nettyrack as a user would run it, asked by
# Net::HTTP and by curl, then stopped with SIGTERM.
RSpec.describe "examples/" do
  let(:root) { File.expand_path("..", __dir__) }

  {
    "hello" => { "/" => /Hello from nettyrack on jruby/ },
    "sinatra" => { "/" => /sinatra 3\.\d+\.\d+ on jruby/, "/json/21" => /\A\{"n":42\}\z/ },
    "rails" => { "/" => /hello from Rails 6\.1/, "/json/21" => /"n":42,"engine":"jruby"/ },
    "echo" => { "/" => /open a WebSocket to this address/ },
    "hijack_echo" => { "/" => /hijack_echo: open a WebSocket/ },
    "cable" => { "/" => %r{<title>nettyrack cable</title>}, "/action_cable.js" => /createConsumer/ },
    "sse_clock" => { "/" => /new EventSource\("\/"\)/ },
    "chat" => { "/" => %r{<title>nettyrack chat</title>}, "/chat.js" => /new WebSocket/ },
  }.each do |name, routes|
    it "serves #{name}" do
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-e", "production", "examples/#{name}/config.ru",
                                   chdir: root)
      port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 120)[1]
      routes.each do |path, body|
        expect(fetch("http://127.0.0.1:#{port}#{path}", timeout: 60).body).to match(body)
        curl, status = Open3.capture2("curl", "-sS", "--max-time", "30", "http://127.0.0.1:#{port}#{path}")
        expect([status.success?, curl]).to match([true, body])
      end
      if name == "sinatra"
        expect(post("http://127.0.0.1:#{port}/echo", "quiet please").body).to eq("QUIET PLEASE")
      end
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr).not_to include("warning") # rails: eager_load is on, as it must be
    ensure
      child&.kill
    end
  end

  # The push examples' streams and sockets, from real clients.
  context "with push" do
    # examples/NAME/config.ru served by bin/nettyrack; yields its base URL, then stops it.
    def serving(name)
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-e", "production", "examples/#{name}/config.ru",
                                   chdir: root)
      yield "http://127.0.0.1:#{child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 120)[1]}"
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
    ensure
      child&.kill
    end

    # The first +count+ Server-Sent Events of +url+ (fewer if the stream ends first), each as
    # its text; keep-alive comments left out.
    def events(url, count, headers = {})
      uri = URI(url)
      text = +""
      Net::HTTP.start(uri.host, uri.port, open_timeout: 30, read_timeout: 30) do |http|
        catch(:enough) do
          http.request(Net::HTTP::Get.new(uri, headers.merge("accept" => "text/event-stream"))) do |response|
            expect([response.code, response["content-type"]]).to match(["200", %r{\Atext/event-stream}])
            response.read_body do |chunk|
              text << chunk
              throw :enough if complete_events(text).size >= count
            end
          end
        end
      end
      complete_events(text).first(count)
    end

    def complete_events(text)
      text.scan(/((?:[^\n]+\n)+)\n/).flatten.reject { |event| event.lines.all? { |line| line.start_with?(":") } }
    end

    it "streams sse_clock's ticks, counting on from Last-Event-ID" do
      serving("sse_clock") do |base|
        first, second = events("#{base}/", 2, "last-event-id" => "41")
        expect(first).to match(/\Aid: 42\nevent: tick\nretry: 1000\ndata: \d\d:\d\d:\d\d\n\z/)
        expect(second).to match(/\Aid: 43\nevent: tick\ndata: \d\d:\d\d:\d\d\n\z/)
      end
    end

    it "answers echo's event stream with its query string, then ends it" do
      serving("echo") { |base| expect(events("#{base}/?hello", 2)).to eq(["data: hello\n"]) }
    end

    it "echoes WebSocket messages over rack.hijack and websocket-driver (hijack_echo, from Python and Node)" do
      serving("hijack_echo") do |base|
        url = "#{base.sub('http', 'ws')}/"
        report = PythonClients.run("clients/ws_client.py", {
          url: url, timeout: 30,
          steps: [{ send: { text: "h\u00e9llo" } }, { send: { binary: "AP8B" } }, { recv: 2 },
                  { close: { code: 1000, reason: "bye" } }]
        }, timeout: 60)
        expect(report["error"]).to be_nil
        expect(report["handshake"]["status"]).to eq(101)
        expect(report["received"]).to eq([{ "type" => "text", "data" => "h\u00e9llo" },
                                          { "type" => "binary", "data" => "AP8B" }])
        expect(report["close"]["rcvd"]).to eq("code" => 1000, "reason" => "bye")
        node = NodeClients.run("clients/ws_node_client.js", {
          url: url, compression: false, timeout: 30,
          messages: [{ size: 10 }, { size: 100_000, random: true }, { size: 70_000, fragments: 3 }]
        }, timeout: 60)
        expect(node["error"]).to be_nil
        expect(node["echoes"].map { |e| e["received"] }).to eq(node["echoes"].map { |e| e["sent"] })
        expect(node["close"]["code"]).to eq(1000)
      end
    end

    { "echo" => "rack.upgrade", "hijack_echo" => "rack.hijack and websocket-driver" }.each do |name, how|
      it "echoes WebSocket text as text and binary as binary (#{name}: #{how}, from Chromium)" do
        skip Browser::MISSING unless Browser.executable
        serving(name) do |base|
          browser = Browser.launch
          echoed = browser.open("#{base}/").eval(<<~JS, timeout: 40)
            new Promise((resolve) => {
              const socket = new WebSocket(`ws://${location.host}/`);
              const got = [];
              socket.binaryType = "arraybuffer";
              socket.onopen = () => { socket.send("h\u00e9llo"); socket.send(new Uint8Array([0, 255, 1])); };
              socket.onmessage = ({ data }) => {
                got.push(typeof data === "string" ? data : Array.from(new Uint8Array(data)));
                if (got.length === 2) resolve(got);
              };
              socket.onclose = ({ code }) => resolve([...got, `closed ${code}`]);
              setTimeout(() => resolve([...got, "timed out"]), 30000);
            })
          JS
          expect(echoed).to eq(["h\u00e9llo", [0, 255, 1]])
        ensure
          browser&.close
        end
      end
    end
  end
end
