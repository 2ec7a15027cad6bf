# frozen_string_literal: true

require "tmpdir"
require "nettyrack/state_file"

RSpec.describe Nettyrack::StateFile do
  it "writes Puma's keys whole, with its mode, and removes the file only while it names this process" do
    Dir.mktmpdir do |dir|
      path = File.join(dir, "puma.state")
      state = described_class.new(path, permission: 0o640, pid: Process.pid).check
      state.write(control_url: "tcp://127.0.0.1:9293", token: "s3cret", tag: "shop")
      expect(described_class.read(path)).to eq("pid" => Process.pid, "running_from" => Dir.pwd, "control_url" => "tcp://127.0.0.1:9293",
                                                "control_auth_token" => "s3cret", "tag" => "shop", "version" => Nettyrack::VERSION)
      expect(File.stat(path).mode & 0o777).to eq(0o640)
      expect(Dir.children(dir)).to eq(["puma.state"]), "no temporary file left"
      File.write(path, "---\npid: 4310\n") # a hot restart's new process wrote its own
      state.remove
      expect(File.exist?(path)).to be(true)
      described_class.new(path, pid: 4310).remove
      expect(File.exist?(path)).to be(false)
    end
  end

  it "writes the token none for a control endpoint that asks for none, and nothing of one that is not there" do
    Dir.mktmpdir do |dir|
      path = File.join(dir, "puma.state")
      described_class.new(path).write(control_url: "unix:///run/app/ctl.sock", token: :none)
      expect(described_class.read(path)).to include("control_url" => "unix:///run/app/ctl.sock", "control_auth_token" => "none")
      described_class.new(path).write(control_url: nil, token: nil)
      expect(described_class.read(path).keys).to eq(%w[pid running_from version])
    end
  end

  it "says in one sentence why a path cannot be used, before the app loads" do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "file"), "")
      expect { described_class.new(File.join(dir, "file", "x.state")).check }
        .to raise_error(Nettyrack::BootError, /\Acannot write state file #{dir}\/file\/x\.state: cannot make #{dir}\/file: /)
    end
  end
end
