# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/cli"
require "nettyrack/dsl"
require "nettyrack/rack_options"

# The SETTINGS table, and the doors made from it: every row reaches the CLI (flag and help),
# the config file (a DSL method), rackup's -O options, and Configuration::DEFAULTS.
RSpec.describe "Nettyrack::SETTINGS" do
  let(:rows) { Nettyrack::SETTINGS }
  let(:with_flags) { rows.select(&:flags) }

  def switches(row)
    [*row.flags, *row.also.map(&:flag)].compact.map { |switch| switch[/\A-[^ \[=]*(?:\[no-\][\w-]+)?/] }
  end

  it "names each setting once, in a --help group" do
    expect(rows.map(&:name)).to eq(rows.map(&:name).uniq)
    expect(rows.map(&:group).uniq - Nettyrack::Settings::GROUPS.keys).to be_empty
  end

  it "gives every flag help text that OptionParser reads as text (a line starting with - would be a switch)" do
    expect(with_flags.reject { |row| row.help_lines.any? && row.also.all? { |aka| aka.flag.nil? || aka.help } }).to be_empty
    expect(rows.flat_map(&:help_lines).grep(/\A-|%\{/)).to be_empty
  end

  it "gives every flag a switch no other flag has, -C, -h and -v included" do
    all = with_flags.flat_map { |row| switches(row) } + %w[-C --config -h --help -v --version]
    expect(all.tally.select { |_, count| count > 1 }).to eq({})
  end

  it "has defaults its own reader reads back unchanged" do
    rows.reject { |row| row.default.nil? }.each do |row|
      read = row.into == :list ? row.default.map { |value| row.read(value) } : row.read(row.default)
      expect(read).to eq(row.default), row.name.to_s
    end
  end

  it "marks as servlet only settings a ServerConfig takes, each with a flag to name its context param" do
    servlet = Nettyrack::Settings::SERVLET
    expect(servlet.reject { |row| row.builder || %i[threads otel].include?(row.name) }).to be_empty
    expect(servlet.map(&:flag)).to all(start_with("--"))
    expect(servlet.map(&:name)).to include(:threads, :wait_threads, :max_body_size, :max_header_size, :push_timeout)
  end

  it "is where Configuration::DEFAULTS comes from" do
    expect(Nettyrack::Configuration::DEFAULTS).to eq(rows.to_h { |row| [row.name, row.default] })
  end

  describe "the CLI" do
    let(:help) { Nettyrack::CLI.new(cores: 2).help }

    it "lists every flag with its help in --help, each group under its heading" do
      with_flags.each do |row|
        expect(help).to include(*switches(row), *row.help_lines), row.name.to_s
      end
      expect(help).to include(*Nettyrack::Settings::GROUPS.values)
    end

    it "reads each flag's default, as --help shows it, back to the default" do
      with_flags.select { |row| row.into == :set && !row.default.nil? && row.flags.last.include?(" ") }.each do |row|
        settings = Nettyrack::CLI.new(cores: 2).parse([row.flag, row.shown_default]).settings
        expect(settings).to eq({ row.name => row.default }), row.name.to_s
      end
    end
  end

  describe "the config file" do
    let(:dir) { Dir.mktmpdir("nettyrack-settings") }
    after { FileUtils.rm_rf(dir) }

    it "has a method for every row that has one, and for their other spellings (Puma's too)" do
      methods = rows.flat_map { |row| [row.dsl == true ? row.name : row.dsl, *row.also.map(&:dsl), row.puma] }
                    .select { |name| name.is_a?(Symbol) }
      expect(methods.reject { |name| Nettyrack::DSL.public_method_defined?(name) }).to be_empty
      expect(rows.count { |row| row.dsl == true }).to be > 30
    end

    it "reads each generated method's default back to the default" do
      path = File.join(dir, "nettyrack.rb")
      generated = rows.select { |row| row.dsl == true && !row.default.nil? }
      File.write(path, generated.map { |row| "#{row.name} #{row.default.inspect}\n" }.join)
      expect(Nettyrack::DSL.load(path)).to eq(generated.to_h { |row| [row.name, row.default] })
    end
  end

  describe "Server.new's keywords" do
    it "reads each keyword row's default back to the default" do
      rows.select(&:keyword).reject { |row| row.default.nil? || %i[host port].include?(row.name) }.each do |row|
        expect(Nettyrack::Configuration.keyword_layer(row.name => row.default)).to include(row.name => row.default), row.name.to_s
      end
    end

    it "are the settings a server's ServerConfig is built from, no more" do
      expect(Nettyrack::Settings::KEYWORD_NAMES).to include(:host, :port, :binds, :threads, :control_url, :public_dir,
                                                            *Nettyrack::Settings::BUILDER_NAMES)
      expect(Nettyrack::Settings::KEYWORD_NAMES & %i[environment rackup quiet access_log pubsub pidfile warmup hooks]).to eq([])
    end
  end

  describe "rackup's -O options" do
    let(:options) { Nettyrack::RackOptions }

    it "lists every option row, and the other spellings, for rackup -h" do
      listed = rows.flat_map { |row| [row.option, *row.also.map(&:option)] }.compact
      expect(options.help.keys).to match_array(listed)
      expect(options.help.values).to all(be_a(String).and(satisfy { |text| !text.empty? && !text.include?("%{") }))
    end

    it "passes every option on to the server" do
      rows.select(&:option).each do |row|
        name = row.option_name
        given = { name.to_sym => "given-#{name}" }
        passed = options.keywords(given).values.include?("given-#{name}") || options.quiet?(given) == "given-#{name}"
        passed ||= name == "pubsub" && options.pubsub({ pubsub: "redis://h:6379" }, {}) == "redis://h:6379"
        passed ||= name == "log_format" && options.log_format({ log_format: "JSON" }) == "json"
        passed ||= options::HISTORY_ROWS.include?(row) && options.history({ name.to_sym => "7" }).value?(7)
        expect(passed).to be(true), name
      end
      expect(options.keywords({ "no_control_token" => "true" })[:control_token]).to eq(:none)
    end

    it "makes one Configuration of them, over $RACK_ENV and $RAILS_MAX_THREADS" do
      env = { "RACK_ENV" => "production", "RAILS_MAX_THREADS" => "5" }
      config = options.configuration({ Host: "127.0.0.1", Port: "0", "max_body_size" => "1k", http2: "false" }, env)
      expect([config.binds, config.environment, config.threads, config.limits[:max_body_size], config.http2?])
        .to eq([[Nettyrack::Bind.tcp("127.0.0.1", 0)], "production", [5, 5], 1024, false])
      config = options.configuration({ environment: "development", Threads: "1:2" }, env)
      expect([config.binds, config.environment, config.threads, config.development?])
        .to eq([[Nettyrack::Bind.tcp("0.0.0.0", 9292)], "development", [1, 2], true])
    end
  end
end
