# frozen_string_literal: true

require "tmpdir"
require "nettyrack/cli"
require "nettyrack/dsl"
require "nettyrack/java_config"

# The file settings from every place they are written (flags, config file, Server.new and
# rackup -O keywords) to the Java FileOptions.
RSpec.describe Nettyrack::FileSettings do
  let(:dir) { Dir.mktmpdir("nettyrack-files") }
  after { FileUtils.rm_rf(dir) }

  def cli(*argv)
    Nettyrack::CLI.new(cores: 2).parse(argv).settings
  end

  def cli_error(*argv)
    cli(*argv)
    raise "no error"
  rescue Nettyrack::ConfigError => e
    e.message
  end

  def config_file(text)
    path = File.join(dir, "nettyrack.rb")
    File.write(path, text)
    Nettyrack::DSL.load(path)
  end

  it "reads the flags: an absolute public dir, cache rules in order, dotfiles, sendfile, early hints" do
    Dir.chdir(dir) do
      Dir.mkdir("public")
      expect(cli("--public", "public", "--public-cache-control", "/assets/=public, max-age=31536000, immutable",
                 "--public-cache-control", "/=no-cache", "--public-dotfiles", "--sendfile", "--no-early-hints"))
        .to eq(public_dir: File.join(Dir.pwd, "public"), public_dotfiles: true, sendfile: true, early_hints: false,
               public_cache_control: [["/assets/", "public, max-age=31536000, immutable"], ["/", "no-cache"]])
    end
  end

  it "refuses a public dir that is not a directory, and a cache rule without a prefix" do
    expect(cli_error("--public", File.join(dir, "missing"))).to eq("invalid --public: #{File.join(dir, 'missing').inspect} is not a directory")
    expect(cli_error("--public-cache-control", "max-age=60"))
      .to start_with('invalid --public-cache-control: "max-age=60" is not PREFIX=VALUE')
  end

  it "reads the config file" do
    layer = config_file(<<~RUBY)
      public_dir #{dir.inspect}
      public_cache_control "/assets/", "max-age=60"
      public_dotfiles
      sendfile false
      early_hints false
    RUBY
    expect(layer).to eq(public_dir: dir, public_cache_control: [["/assets/", "max-age=60"]], public_dotfiles: true,
                        sendfile: false, early_hints: false)
  end

  it "reads keywords (Server.new, rackup -O), skipping unset ones, and names the bad one" do
    layer = Nettyrack::Configuration.keyword_layer(public_dir: dir, sendfile: nil, early_hints: "false", public_dotfiles: true)
    expect(layer.slice(*described_class::NAMES)).to eq(public_dir: dir, early_hints: false, public_dotfiles: true)
    expect { Nettyrack::Configuration.keyword_layer(early_hints: "maybe") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid early_hints: /)
    expect { Nettyrack::Configuration.keyword_layer(public_dir: File.join(dir, "none")) }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid public_dir: ".*none" is not a directory/)
  end

  it "reaches Java: off by default, sendfile on with a public dir, early hints on by default" do
    build = lambda do |**settings|
      Nettyrack::JavaConfig.build(Nettyrack::Configuration.merge({ binds: [Nettyrack::Bind.tcp("127.0.0.1", 0)], threads: [1, 2] }, settings))
    end
    default = build.call
    on = build.call(public_dir: dir, public_cache_control: [["/a/", "max-age=1"]], public_dotfiles: true)
    expect([default.fileSettings.files.publicDir, default.fileSettings.files.sendfile, default.fileSettings.earlyHints]).to eq([nil, false, true])
    expect([on.fileSettings.files.publicDir.to_s, on.fileSettings.files.sendfile, on.fileSettings.files.dotfiles, on.fileSettings.files.cacheControl.forPath("/a/x")])
      .to eq([dir, true, true, "max-age=1"])
    expect(build.call(early_hints: false, sendfile: true).then { |c| [c.fileSettings.earlyHints, c.fileSettings.files.sendfile] }).to eq([false, true])
  end
end
