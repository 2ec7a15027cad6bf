# frozen_string_literal: true

require_relative "../support/nettyrack_process"
require_relative "../support/files_helper"

# The file flags through bin/nettyrack, as a user runs it: --public serves a directory before
# the app and announces x-sendfile; --no-early-hints takes rack.early_hints away (curl -v sees
# no 103); a public directory that is not one is a readable error.
RSpec.describe "bin/nettyrack --public / --no-early-hints" do
  let(:app) { File.expand_path("../fixtures/early_hints.ru", __dir__) }

  it "serves the directory, leaves the rest to the app, and sends no 103 with --no-early-hints" do
    Dir.mktmpdir("nettyrack-cli-public") do |dir|
      File.write(File.join(dir, "robots.txt"), "User-agent: *\n")
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:2", "--public", dir,
                                   "--public-cache-control", "/=max-age=60", "--no-early-hints", app)
      port = child.stdout_match(/listening on .*:(\d+)/)[1].to_i
      robots = curl(port, "/robots.txt")
      _out, verbose, = Open3.capture3("curl", "-sv", "--max-time", "10", "http://127.0.0.1:#{port}/page")
      expect([robots.status, robots.body, robots.headers["cache-control"]]).to eq([200, "User-agent: *\n", "max-age=60"])
      expect(verbose.scan(/^< HTTP\/1.1 \d+/)).to eq(["< HTTP/1.1 200"])
      expect(curl(port, "/page").body).to eq("hints off, sendfile type \"x-sendfile\"\n")
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
    ensure
      child&.kill
    end
  end

  it "offers early hints by default, and refuses a --public that is not a directory" do
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:2", app)
    port = child.stdout_match(/listening on .*:(\d+)/)[1].to_i
    _out, verbose, = Open3.capture3("curl", "-sv", "--max-time", "10", "http://127.0.0.1:#{port}/")
    expect(verbose.scan(/^< HTTP\/1.1 \d+/)).to eq(["< HTTP/1.1 103", "< HTTP/1.1 200"])
    expect(curl(port, "/").body).to eq("hints on, sendfile type nil\n")
    child.signal("TERM")
    child.wait
    bad = NettyrackProcess.new("--public", "/nonexistent/dir", app)
    expect(bad.wait.exitstatus).not_to eq(0)
    expect(bad.stderr).to include('invalid --public: "/nonexistent/dir" is not a directory')
  ensure
    child&.kill
    bad&.kill
  end
end
