# frozen_string_literal: true

require "fileutils"
require "open3"
require "tmpdir"

# The unit files docs/restart.md shows (examples/systemd) are what systemd accepts, and say
# what nettyrack's hot restart needs of systemd. (hot_restart_spec drives the protocol itself:
# socket activation and sd_notify.)
RSpec.describe "examples/systemd" do
  let(:dir) { File.expand_path("../../examples/systemd", __dir__) }
  let(:service) { File.read(File.join(dir, "nettyrack.service")) }
  let(:socket) { File.read(File.join(dir, "nettyrack.socket")) }

  it "passes systemd-analyze verify" do
    skip "no systemd-analyze here" unless system("command -v systemd-analyze >/dev/null")
    Dir.mktmpdir("nettyrack-units") do |tmp|
      FileUtils.cp(Dir[File.join(dir, "*.s*")], tmp)
      out, status = Open3.capture2e("timeout", "60", "systemd-analyze", "verify",
                                    File.join(tmp, "nettyrack.socket"), File.join(tmp, "nettyrack.service"))
      expect([status.exitstatus, out]).to eq([0, ""])
    end
  end

  it "asks for what a hot restart needs: notify with any process, USR2 to reload, the socket's address bound" do
    expect(service).to match(/^Type=notify$/).and match(/^NotifyAccess=all$/)
    expect(service).to match(/^ExecReload=\/bin\/kill -USR2 \$MAINPID$/)
    listen = socket[/^ListenStream=(\S+)$/, 1]
    expect(service[/^ExecStart=.*$/]).to include("-b tcp://#{listen}").and include("--pidfile")
    shutdown = service[/--shutdown-timeout (\d+)/, 1].to_i
    expect(service[/^TimeoutStopSec=(\d+)$/, 1].to_i).to be > shutdown
  end
end
