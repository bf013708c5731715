import { describe, expect, it } from 'vitest';
import {
  formatOutline,
  type OutlineResult,
  outlineSource,
  supportedExtensions,
} from '../../src/outline/index.js';

/** Each definition as "line kind name", indented two spaces per level of nesting. */
async function outline(source: string, fileName: string): Promise<string[]> {
  const result = await outlineSource(source, fileName);
  if (!result) throw new Error(`no outline for ${fileName}`);
  return result.definitions.map((d) => `${d.line} ${'  '.repeat(d.depth)}${d.kind} ${d.name}`);
}

const TYPESCRIPT = `import { readFile } from 'node:fs/promises';

export interface Store {
  get(key: string): Promise<string | undefined>;
}

export type Key = string;

export enum Mode { Read, Write }

@injectable()
export class FileStore implements Store {
  private cache = new Map<string, string>();
  onEvict = (key: string) => this.cache.delete(key);

  constructor(private readonly root: string) {}

  async get(key: string): Promise<string | undefined> {
    const load = async () => readFile(key, 'utf8');
    function local() {}
    return this.cache.get(key) ?? load();
  }
}

export function createStore(root: string): Store {
  return new FileStore(root);
}

export const parseKey = (raw: string): Key => raw.trim();
export const DEFAULTS = { mode: Mode.Read };
const handlers = { save() {} };

export namespace Keys {
  export function join(...parts: string[]) { return parts.join('/'); }
}
`;

describe('outlineSource', () => {
  it('outlines TypeScript', async () => {
    expect(await outline(TYPESCRIPT, 'src/store.ts')).toEqual([
      '3 interface Store',
      '4   method get',
      '7 type Key',
      '9 enum Mode',
      '12 class FileStore',
      '14   method onEvict',
      '16   method constructor',
      '18   method get',
      '25 function createStore',
      '29 function parseKey',
      '33 namespace Keys',
      '34   function join',
    ]);
  });

  it('reports the first line of each definition, trimmed, from the line of its name', async () => {
    const result = await outlineSource(TYPESCRIPT, 'store.mts');
    const byLine = new Map(result?.definitions.map((d) => [d.line, d.text]));
    expect(byLine.get(12)).toBe('export class FileStore implements Store {');
    expect(byLine.get(18)).toBe('async get(key: string): Promise<string | undefined> {');
    expect(byLine.get(29)).toBe('export const parseKey = (raw: string): Key => raw.trim();');
  });

  it('outlines TSX and JavaScript, JSX included', async () => {
    const component = `import React from 'react';

export default class App extends React.Component {
  handleClick = () => this.setState({ open: true });
  render() {
    return <Button label="Open" onClick={this.handleClick} />;
  }
}

export const Button = ({ label, onClick }) => <button onClick={onClick}>{label}</button>;
function* ids() { let id = 0; while (true) yield id++; }
module.exports = { Button };
`;
    const expected = [
      '3 class App',
      '4   method handleClick',
      '5   method render',
      '10 function Button',
      '11 function ids',
    ];
    expect(await outline(component, 'App.tsx')).toEqual(expected);
    expect(await outline(component, 'App.jsx')).toEqual(expected);
    expect(await outline(component, 'app.cjs')).toEqual(expected);
  });

  it('outlines Python', async () => {
    const source = `import os


class Greeter(Base):
    """Says hello."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def greeting(self) -> str:
        def shout(text):
            return text.upper()
        return shout(f"hello {self.name}")


@cache
async def load(path):
    return os.path.join(path, "x")
`;
    expect(await outline(source, 'greeter.py')).toEqual([
      '4 class Greeter',
      '7   method __init__',
      '11   method greeting',
      '18 function load',
    ]);
  });

  it('outlines Go', async () => {
    const source = `package server

type Server struct {
	addr string
}

type Handler interface {
	Serve(req *Request) error
}

type ID = string

func New(addr string) *Server {
	done := func() {}
	defer done()
	return &Server{addr: addr}
}

func (s *Server) Start() error {
	return nil
}
`;
    expect(await outline(source, 'server.go')).toEqual([
      '3 struct Server',
      '7 interface Handler',
      '8   method Serve',
      '11 type ID',
      '13 function New',
      '19 method Start',
    ]);
  });

  it('outlines Rust', async () => {
    const source = `use std::fmt;

pub struct Point<T> {
    x: T,
}

pub enum Shape { Circle, Square }

pub trait Area {
    fn area(&self) -> f64;
}

impl<T> Point<T> {
    pub fn new(x: T) -> Self {
        fn helper() {}
        Point { x }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}

pub fn distance(a: f64, b: f64) -> f64 { (a - b).abs() }

mod tests {
    fn it_works() {}
}
`;
    expect(await outline(source, 'geo.rs')).toEqual([
      '3 struct Point',
      '7 enum Shape',
      '9 trait Area',
      '10   method area',
      '13 impl Point<T>',
      '14   method new',
      '20 impl Shape',
      '21   method fmt',
      '24 function distance',
      '26 module tests',
      '27   function it_works',
    ]);
  });

  it('outlines Java, leaving out anonymous classes', async () => {
    const source = `package com.example;

@Service
public class UserService {
    private final Repo repo;

    public UserService(Repo repo) {
        this.repo = repo;
    }

    @Override
    public List<User> findAll() {
        Runnable r = new Runnable() { public void run() {} };
        return repo.all();
    }

    enum Status { ACTIVE, BLOCKED }
}

interface Repo {
    List<User> all();
}

record Pair(int a, int b) {}
`;
    expect(await outline(source, 'UserService.java')).toEqual([
      '4 class UserService',
      '7   method UserService',
      '12   method findAll',
      '17   enum Status',
      '20 interface Repo',
      '21   method all',
      '24 record Pair',
    ]);
  });

  it('outlines C with the C++ grammar, prototypes and typedefs included, function pointers not', async () => {
    const source = `#include <stdio.h>

struct node {
    int value;
    struct node *next;
};

typedef struct {
    int x, y;
} point_t;

static int count(struct node *head);
int (*handler)(int);
void sort(void *base, size_t n, int compare(const void *, const void *));

int count(struct node *head) {
    int n = 0;
    return n;
}

static char **split(const char *s) {
    return 0;
}
`;
    const result = await outlineSource(source, 'list.c');
    expect(await outline(source, 'list.h')).toEqual([
      '3 struct node',
      '8 type point_t',
      '12 function count',
      '14 function sort',
      '16 function count',
      '21 function split',
    ]);
    expect(result?.definitions[1].text).toBe('typedef struct {');
  });

  it('outlines C++', async () => {
    const source = `#include <string>

namespace geo {

template <typename T>
class Shape : public Base {
public:
    Shape() = default;
    double area() const { return 0; }
    static Shape* make();
};

double Shape<int>::perimeter() const {
    auto twice = [](int a) { return a * 2; };
    return twice(1);
}

}  // namespace geo

int main(int argc, char** argv) {
    return 0;
}
`;
    expect(await outline(source, 'shape.cpp')).toEqual([
      '3 namespace geo',
      '6   class Shape',
      '8     method Shape',
      '9     method area',
      '10     method make',
      '13   function Shape<int>::perimeter',
      '20 function main',
    ]);
  });

  it('outlines C#', async () => {
    const source = `using System;

namespace Shop.Orders
{
    public interface IOrderRepository
    {
        Order Find(int id);
    }

    [Serializable]
    public class OrderService
    {
        public OrderService(IOrderRepository repo) { }

        public string Name { get; set; }

        public async Task<Order> PlaceAsync(Cart cart)
        {
            int Local() => 1;
            return null;
        }
    }

    public enum Status { Open, Closed }
}
`;
    expect(await outline(source, 'Orders.cs')).toEqual([
      '3 namespace Shop.Orders',
      '5   interface IOrderRepository',
      '7     method Find',
      '11   class OrderService',
      '13     method OrderService',
      '17     method PlaceAsync',
      '24   enum Status',
    ]);
  });

  it('outlines Ruby', async () => {
    const source = `require "json"

module Billing
  class Invoice < Base
    attr_reader :total

    def initialize(total)
      @total = total
    end

    def self.build(attrs)
      new(attrs[:total])
    end
  end
end

def helper(x) = x * 2
`;
    expect(await outline(source, 'invoice.rb')).toEqual([
      '3 module Billing',
      '4   class Invoice',
      '7     method initialize',
      '11     method build',
      '17 method helper',
    ]);
  });

  it('outlines PHP', async () => {
    const source = `<?php

namespace App\\Http;

interface Handler
{
    public function handle(Request $request): Response;
}

final class Controller implements Handler
{
    public function __construct(private Service $service) {}

    public function handle(Request $request): Response
    {
        $fn = function () { return 1; };
        return new Response();
    }
}

function helper(array $items): int
{
    return count($items);
}
`;
    expect(await outline(source, 'Controller.php')).toEqual([
      '3 namespace App\\Http',
      '5 interface Handler',
      '7   method handle',
      '10 class Controller',
      '12   method __construct',
      '14   method handle',
      '21 function helper',
    ]);
  });

  it('returns null for an extension without a grammar', async () => {
    expect(await outlineSource('# Title', 'README.md')).toBeNull();
    expect(await outlineSource('all:', 'Makefile')).toBeNull();
    expect(supportedExtensions()).toContain('.h');
  });

  it('returns no definitions for an empty file', async () => {
    expect(await outlineSource('', 'empty.ts')).toEqual({ definitions: [] });
    expect(await outlineSource('\n\n', 'empty.py')).toEqual({ definitions: [] });
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const source = 'export class Good {\n  ok() {}\n}\n\nfunction broken( {\n\nexport function after() {}\n';
    const names = (await outlineSource(source, 'broken.ts'))?.definitions.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['Good', 'ok']));
  });

  it('matches extensions case-insensitively and handles CRLF line endings', async () => {
    const result = await outlineSource('class A:\r\n    def run(self):\r\n        pass\r\n', 'TOOL.PY');
    expect(result?.definitions.map((d) => [d.line, d.text])).toEqual([
      [1, 'class A:'],
      [2, 'def run(self):'],
    ]);
  });

  it('cuts long first lines to 200 characters', async () => {
    const params = Array.from({ length: 60 }, (_, i) => `p${i}: number`).join(', ');
    const [definition] = (await outlineSource(`function wide(${params}) {}`, 'wide.ts'))!.definitions;
    expect(definition.text).toHaveLength(200);
    expect(definition.text.endsWith('…')).toBe(true);
  });

  it('outlines files of several languages concurrently', async () => {
    const results = await Promise.all([
      outlineSource('def a(): pass', 'a.py'),
      outlineSource('fn b() {}', 'b.rs'),
      outlineSource('def c(): pass', 'c.py'),
      outlineSource('function d() {}', 'd.js'),
    ]);
    expect(results.map((r) => r?.definitions[0].name)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('formatOutline', () => {
  const definition = (line: number, depth: number, kind: string, name: string, text: string) => ({
    line,
    depth,
    kind,
    name,
    text,
  });
  const store: OutlineResult = {
    definitions: [
      definition(3, 0, 'class', 'Foo', 'export class Foo {'),
      definition(5, 1, 'method', 'bar', 'bar(x: number): void {'),
      definition(12, 0, 'function', 'baz', 'export function baz() {'),
    ],
  };

  it('lists files by path with line numbers and nesting', () => {
    const empty: OutlineResult = { definitions: [] };
    expect(
      formatOutline([
        { path: 'src/b.ts', outline: empty },
        { path: 'src/a.ts', outline: store },
      ]),
    ).toBe(
      [
        'src/a.ts',
        '│ 3  export class Foo',
        '│ 5    bar(x: number): void',
        '│ 12 export function baz()',
        'src/b.ts',
        '│ (no definitions)',
      ].join('\n'),
    );
  });

  it('names the definition when its line does not show the name', () => {
    const typedef = { definitions: [definition(8, 0, 'type', 'point_t', 'typedef struct {')] };
    expect(formatOutline([{ path: 'list.h', outline: typedef }])).toBe(
      'list.h\n│ 8 type point_t: typedef struct',
    );
  });
});
