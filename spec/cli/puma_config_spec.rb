# frozen_string_literal: true

require "fileutils"
require "net/http"
require "tmpdir"
require "yaml"

# A Puma user's app moves over unchanged: `nettyrack` in an app whose config/puma.rb is a
# Puma config file (spec/fixtures/puma_app) finds it, honours what applies (stdout_redirect,
# tag, state file, log_requests, the hooks, lowlevel_error_handler, the control app, plugin
# :tmp_restart), says in one line each what does not (workers, preload_app!, ...), and then
# `nettyrack ctl -S`, SIGHUP, a touch of tmp/restart.txt and SIGTERM all do what Puma's do.
RSpec.describe "A Puma app's config/puma.rb (bin/nettyrack)" do
  let(:root) { File.expand_path("../..", __dir__) }

  # An app as a fresh checkout has it: config/puma.rb and config.ru, no log/ or tmp/pids/ yet.
  def app_dir(dir)
    FileUtils.cp_r(File.join(root, "spec/fixtures/puma_app/config"), dir)
    FileUtils.cp(File.join(root, "spec/fixtures/pid.ru"), File.join(dir, "config.ru"))
    File.realpath(dir)
  end

  def log(dir, name)
    path = File.join(dir, "log", name)
    File.exist?(path) ? File.read(path) : ""
  end

  def wait_for_log(dir, name, pattern, timeout: 60)
    Deadline.wait_until(timeout: timeout) { log(dir, name)[pattern] && log(dir, name).match(pattern) }
  rescue RuntimeError
    raise "#{name} never matched #{pattern.inspect}:\n#{log(dir, name)}\n--- stderr log:\n#{log(dir, 'puma.stderr.log')}"
  end

  def ctl(dir, *args)
    out = IO.popen([RbConfig.ruby, File.join(root, "bin/nettyrack"), "ctl", *args, chdir: dir, err: %i[child out]], &:read)
    [$?.exitstatus, out]
  end

  it "boots unchanged, and takes ctl -S, SIGHUP, tmp/restart.txt and SIGTERM as Puma would" do
    Dir.mktmpdir("nettyrack-puma") do |dir|
      dir = app_dir(dir)
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "--warmup-time", "2s", chdir: dir)
      pids = [child.pid]
      begin
        child.stdout_match(%r{\Anettyrack: settings from config/puma\.rb \(found there; .*\)\n})
        child.stdout_match(%r{nettyrack: stdout goes to #{dir}/log/puma\.stdout\.log, stderr goes to #{dir}/log/puma\.stderr\.log\n})
        port = wait_for_log(dir, "puma.stdout.log", /nettyrack 0\.1\.0 \[shop\] \(.*5 threads.*\) listening on http:\/\/127\.0\.0\.1:(\d+)\n/)[1]
        out = wait_for_log(dir, "puma.stdout.log", /on_booted ran\n/).string
        expect(out.index("on_worker_boot ran")).to be < out.index("listening on"), "on_worker_boot runs once, before serving"
        expect(out).not_to include("before_fork ran")
        said = log(dir, "puma.stderr.log").scan(/^nettyrack: `([^']*)' \(config\/puma\.rb:\d+\): (.*)$/)
        expect(said.map(&:first)).to eq(["worker_timeout 3600", "workers 2", "preload_app!", "fork_worker",
                                         "before_fork { ... }", "on_worker_boot { ... }"])

        http = Net::HTTP.new("127.0.0.1", port)
        expect(http.get("/hello").body).to eq("pid #{child.pid} version none\n")
        boom = http.get("/boom")
        expect([boom.code, boom.body]).to eq(["500", "handled: boom\n"]), "the lowlevel_error_handler answers"
        wait_for_log(dir, "puma.stdout.log", %r{"GET /hello HTTP/1\.1" 200 })

        state = YAML.safe_load(File.read(File.join(dir, "tmp/pids/puma.state")))
        expect(state).to include("pid" => child.pid, "control_auth_token" => "puma-token", "tag" => "shop")
        expect(File.read(File.join(dir, "tmp/pids/server.pid"))).to eq("#{child.pid}\n")
        status, stats = ctl(dir, "-S", "tmp/pids/puma.state", "stats")
        expect([status, JSON.parse(stats).dig("process", "pid")]).to eq([0, child.pid])

        File.rename(File.join(dir, "log/puma.stdout.log"), File.join(dir, "log/puma.stdout.log.1"))
        child.signal("HUP")
        wait_for_log(dir, "puma.stdout.log", /nettyrack: SIGHUP: reopened #{dir}\/log\/puma\.stdout\.log, #{dir}\/log\/puma\.stderr\.log\n/)
        http.get("/after-rotation")
        wait_for_log(dir, "puma.stdout.log", %r{"GET /after-rotation HTTP/1\.1" 200 })

        FileUtils.touch(File.join(dir, "tmp/restart.txt"), mtime: Time.now + 5)
        successor = wait_for_log(dir, "puma.stdout.log", /hot restart \(tmp\/restart\.txt touched\): pid (\d+) is booting/)[1].to_i
        pids << successor
        wait_for_log(dir, "puma.stdout.log", /pid #{successor} serves now; pid #{child.pid} drains/, timeout: 180)
        expect(log(dir, "puma.stdout.log")).to include("on_restart ran")
        expect(child.wait(timeout: 60).exitstatus).to eq(0), "the old process drained and exited"
        Deadline.wait_until(timeout: 30) { YAML.safe_load(File.read(File.join(dir, "tmp/pids/puma.state")))["pid"] == successor }
        expect(Net::HTTP.new("127.0.0.1", port).get("/").body).to start_with("pid #{successor} ")

        Process.kill("TERM", successor)
        Deadline.wait_until(timeout: 60) { !NettyrackProcess.alive?(successor) }
        out = log(dir, "puma.stdout.log")
        expect(out.rindex("on_stopped ran")).to be > out.index("nettyrack: shutting down (SIGTERM)"), out
        expect(Dir.children(File.join(dir, "tmp/pids"))).to eq([]), "pid and state files removed"
      ensure
        NettyrackProcess.kill_all(pids)
        child.kill
      end
    end
  end
end
