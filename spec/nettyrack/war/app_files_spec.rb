# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/war/app_files"
require "nettyrack/war/settings"

RSpec.describe Nettyrack::War::AppFiles do
  around do |example|
    Dir.mktmpdir("app-files") do |dir|
      @app = dir
      %w[config.ru Gemfile Rakefile README.md app/models/user.rb app/models/user.rb.bak app/secret/key.txt
         config/warble.rb lib/tasks/x.rake log/production.log tmp/cache/page.html tmp/pids/server.pid
         public/index.html public/css/site.css spec/user_spec.rb extra/notes.txt].each do |path|
        FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
        File.write(File.join(dir, path), path)
      end
      example.run
    end
  end

  let(:settings) { Nettyrack::War::Settings.new(@app) }

  def names(settings, skip: [])
    described_class.new(settings, skip: skip).entries.keys.sort
  end

  it "takes Warbler's dirs and *file into WEB-INF, public/ to the root, no logs or tmp/cache" do
    expect(names(settings)).to eq(%w[
      WEB-INF/Gemfile WEB-INF/Rakefile WEB-INF/app/models/user.rb WEB-INF/app/models/user.rb.bak
      WEB-INF/app/secret/key.txt WEB-INF/config.ru WEB-INF/config/warble.rb WEB-INF/lib/tasks/x.rake
      WEB-INF/tmp/pids/server.pid css/site.css index.html
    ])
  end

  it "maps each entry to the file it comes from" do
    entries = described_class.new(settings).entries
    expect(File.read(entries.fetch("WEB-INF/app/models/user.rb"))).to eq("app/models/user.rb")
    expect(File.read(entries.fetch("css/site.css"))).to eq("public/css/site.css")
  end

  it "honours dirs, includes and excludes (globs, regexps, whole directories)" do
    settings.dirs = %w[app]
    settings.includes = ["extra/*.txt", "README.md"]
    settings.excludes = ["app/secret", /\.bak\z/]
    expect(names(settings)).to eq(%w[
      WEB-INF/Gemfile WEB-INF/README.md WEB-INF/app/models/user.rb WEB-INF/config.ru
      WEB-INF/extra/notes.txt css/site.css index.html
    ])
  end

  it "follows a symlinked directory, but not round in a circle" do
    File.symlink(File.join(@app, "extra"), File.join(@app, "lib", "linked"))
    File.symlink(File.join(@app, "lib"), File.join(@app, "lib", "tasks", "loop"))
    found = names(settings).grep(%r{\AWEB-INF/lib/})
    expect(found).to include("WEB-INF/lib/linked/notes.txt", "WEB-INF/lib/tasks/x.rake")
    expect(found.grep(%r{loop/.*loop/})).to eq([])
  end

  it "keeps logs when exclude_logs is false, and leaves out the WAR being written" do
    settings.exclude_logs = false
    settings.dirs = %w[log app]
    found = names(settings, skip: [File.join(@app, "app/models/user.rb.bak")])
    expect(found).to include("WEB-INF/log/production.log")
    expect(found).not_to include("WEB-INF/app/models/user.rb.bak")
  end
end
